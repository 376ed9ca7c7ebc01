package instrument

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/apiserver/pkg/endpoints/request"
	kubefake "k8s.io/client-go/kubernetes/fake"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/tools/events"
	"k8s.io/client-go/util/workqueue"
	ctrlfake "sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// auditEnv is a controller of ConfigMaps whose probe records Events on a fake
// recorder, with failing keys default/f0 and default/f1 and a logging handler.
func auditEnv(t *testing.T, kind schema.GroupVersionKind) (*htEnv, *htLog, *events.FakeRecorder) {
	e := newHTEnv(t)
	rec := events.NewFakeRecorder(10)
	rec.Verbose = true // with the action and the object's kind
	p := New("cm", Options{Registry: e.reg, Clock: e.clk, Kind: kind, EventRecorder: rec, DisableMetrics: true})
	hp := &htProbe{env: e, p: p, rl: p.RateLimiter(NewExponentialLimiter[reconcile.Request](time.Second, time.Hour))}
	e.probes["cm"] = hp
	for _, k := range []string{"default/f0", "default/f1"} {
		hp.run(k, reconcile.Result{}, fmt.Errorf("%s", htErrRefused))
	}
	logs := &htLog{}
	e.h = NewHandler(HandlerOptions{Registry: e.reg, Logger: logs.logger(t)})
	return e, logs, rec
}

var configMapKind = schema.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}

// drain returns the events recorded so far.
func drain(events *events.FakeRecorder) []string {
	var out []string
	for {
		select {
		case ev := <-events.Events:
			out = append(out, ev)
		default:
			return out
		}
	}
}

func TestForgetAudit(t *testing.T) {
	const cmObject = " {kind=ConfigMap,apiVersion=v1}"
	tests := []struct {
		name       string
		body       string
		kind       schema.GroupVersionKind
		wantUser   string
		wantReason string
		wantEvents []string
	}{{
		name:       "claimed user and reason",
		body:       `{"controller":"cm","keys":["default/f0"],"user":"alice","reason":"dependency restored","requeue":true}`,
		kind:       configMapKind,
		wantUser:   "alice (unverified)",
		wantReason: "dependency restored",
		wantEvents: []string{"Normal BackoffReset Forget backoff reset by alice (unverified): dependency restored" + cmObject},
	}, {
		name:       "neither",
		body:       `{"controller":"cm","keys":["default/f0","default/f1"]}`,
		kind:       configMapKind,
		wantEvents: []string{"Normal BackoffReset Forget backoff reset" + cmObject, "Normal BackoffReset Forget backoff reset" + cmObject},
	}, {
		name:       "reason only, no kind: no event",
		body:       `{"controller":"cm","keys":["default/f0"],"reason":"quota raised"}`,
		wantReason: "quota raised",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, logs, events := auditEnv(t, tt.kind)
			e.forget(tt.body)

			k := e.detail("cm", "default/f0")
			if r := k.LastReset; r == nil || r.By != api.ResetForget || r.User != tt.wantUser || r.Reason != tt.wantReason {
				t.Errorf("lastReset = %+v, want by %s, user %q, reason %q", r, api.ResetForget, tt.wantUser, tt.wantReason)
			}
			var forgotten *api.Attempt
			for i := range k.History {
				if k.History[i].Outcome == "forgotten" {
					forgotten = &k.History[i]
				}
			}
			if forgotten == nil || forgotten.Trigger != api.TriggerForget || forgotten.By != tt.wantUser || forgotten.Reason != tt.wantReason {
				t.Errorf("forgotten attempt = %+v, want trigger %s, by %q, reason %q", forgotten, api.TriggerForget, tt.wantUser, tt.wantReason)
			}

			lines := logs.all()
			if len(lines) != 1 {
				t.Fatalf("%d log lines, want 1: %v", len(lines), lines)
			}
			if got := lines[0]["user"]; got != tt.wantUser {
				t.Errorf("log user = %v, want %q", got, tt.wantUser)
			}
			if got := lines[0]["reason"]; got != tt.wantReason {
				t.Errorf("log reason = %v, want %q", got, tt.wantReason)
			}

			got := drain(events)
			if strings.Join(got, "\n") != strings.Join(tt.wantEvents, "\n") {
				t.Errorf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.wantEvents, "\n"))
			}
		})
	}
}

// TestForgetAuthenticatedUser: a user an authn filter put on the request is
// recorded as it is, and the client's claim is ignored.
func TestForgetAuthenticatedUser(t *testing.T) {
	e, _, events := auditEnv(t, configMapKind)
	events.Verbose = false // the plain text only
	req := httptest.NewRequest(http.MethodPost, "http://127.0.0.1"+api.DefaultPrefix+"v1/forget",
		strings.NewReader(`{"controller":"cm","keys":["default/f1"],"user":"mallory","reason":"dependency restored"}`))
	req.Header.Set("Content-Type", "application/json")
	req = req.WithContext(request.WithUser(req.Context(), &user.DefaultInfo{Name: "alice"}))
	rec := httptest.NewRecorder()
	e.h.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		t.Fatalf("forget: status %d, want 200: %s", rec.Code, rec.Body)
	}
	if r := e.detail("cm", "default/f1").LastReset; r == nil || r.User != "alice" {
		t.Errorf("lastReset = %+v, want user alice", r)
	}
	want := []string{"Normal BackoffReset backoff reset by alice: dependency restored"}
	if got := drain(events); strings.Join(got, "\n") != want[0] {
		t.Errorf("events = %q, want %q", got, want)
	}
}

// TestForgetDryRunRecordsNothing: a dry run resets nothing, so it writes no
// Event and no reset.
func TestForgetDryRunRecordsNothing(t *testing.T) {
	e, _, events := auditEnv(t, configMapKind)
	e.forget(`{"controller":"cm","keys":["default/f0"],"reason":"try","dryRun":true}`)
	if got := drain(events); len(got) != 0 {
		t.Errorf("events = %q, want none", got)
	}
	if r := e.detail("cm", "default/f0").LastReset; r != nil {
		t.Errorf("lastReset = %+v, want none", r)
	}
}

func TestForgetTextRefused(t *testing.T) {
	tests := []struct {
		name, body, wantParam string
	}{
		{"long reason", fmt.Sprintf(`{"controller":"cm","keys":["default/f0"],"reason":%q}`, strings.Repeat("x", api.MaxReasonBytes+1)), "reason"},
		{"two-line reason", `{"controller":"cm","keys":["default/f0"],"reason":"a\nb"}`, "reason"},
		{"long user", fmt.Sprintf(`{"controller":"cm","keys":["default/f0"],"user":%q}`, strings.Repeat("x", api.MaxUserBytes+1)), "user"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, _, events := auditEnv(t, configMapKind)
			code, _, m := e.do(e.h, http.MethodPost, api.DefaultPrefix+"v1/forget", tt.body)
			if code != http.StatusBadRequest {
				t.Fatalf("status = %d, want 400: %v", code, m)
			}
			if msg := fmt.Sprint(m["error"]); !strings.Contains(msg, tt.wantParam) {
				t.Errorf("error %s does not name %q", msg, tt.wantParam)
			}
			if got := drain(events); len(got) != 0 {
				t.Errorf("events = %q, want none", got)
			}
		})
	}
}

// detail reads one key with its history.
func (e *htEnv) detail(controller, key string) api.KeyDetail {
	e.t.Helper()
	var k api.KeyDetail
	e.getInto("v1/key?controller="+controller+"&key="+key, &k)
	return k
}

// TestForgetEventOnObject sends the Event through a real broadcaster to an
// API (a fake clientset): it lands on the object — kind, namespace, name and
// the UID read with EventObjects, which kubectl describe selects by.
func TestForgetEventOnObject(t *testing.T) {
	cs := kubefake.NewClientset()
	b := events.NewBroadcaster(&events.EventSinkImpl{Interface: cs.EventsV1()})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := b.StartRecordingToSinkWithContext(ctx); err != nil {
		t.Fatal(err)
	}
	defer b.Shutdown()
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "f0", UID: "uid-f0"}}
	objects := ctrlfake.NewClientBuilder().WithObjects(cm).Build()

	e := newHTEnv(t)
	p := New("cm", Options{Registry: e.reg, Clock: e.clk, Object: &corev1.ConfigMap{}, DisableMetrics: true,
		EventRecorder: b.NewRecorder(clientgoscheme.Scheme, "backoff-test"), EventObjects: objects})
	hp := &htProbe{env: e, p: p, rl: p.RateLimiter(nil)}
	hp.run("default/f0", reconcile.Result{}, fmt.Errorf("%s", htErrRefused))
	e.h = NewHandler(HandlerOptions{Registry: e.reg, Logger: new(logr.Discard())})
	e.forget(`{"controller":"cm","keys":["default/f0"],"user":"alice","reason":"dependency restored"}`)

	eventually(t, 10*time.Second, func() (bool, string) {
		list, err := cs.EventsV1().Events("default").List(ctx, metav1.ListOptions{})
		if err != nil {
			return false, err.Error()
		}
		if len(list.Items) != 1 {
			return false, fmt.Sprintf("%d events, want 1", len(list.Items))
		}
		ev := list.Items[0]
		r := ev.Regarding
		want := "backoff reset by alice (unverified): dependency restored"
		if ev.Note != want || ev.Reason != EventReasonBackoffReset || ev.Action != EventActionForget || ev.Type != corev1.EventTypeNormal ||
			r.Kind != "ConfigMap" || r.Namespace != "default" || r.Name != "f0" || r.UID != "uid-f0" {
			return false, fmt.Sprintf("event %s %s %s %q on %+v; want Normal %s %s %q on ConfigMap default/f0 uid-f0",
				ev.Type, ev.Reason, ev.Action, ev.Note, r, EventReasonBackoffReset, EventActionForget, want)
		}
		return true, ""
	})
}

// TestForgetRetryCarriesWho: the retry a forget triggered says who asked
// and why, as the forgotten entry does.
func TestForgetRetryCarriesWho(t *testing.T) {
	e, _, _ := auditEnv(t, configMapKind)
	hp := e.probes["cm"]
	q := hp.p.Queue(workqueue.NewTypedRateLimitingQueueWithConfig(hp.rl,
		workqueue.TypedRateLimitingQueueConfig[reconcile.Request]{Clock: e.clk}))
	t.Cleanup(q.ShutDown)
	e.forget(`{"controller":"cm","keys":["default/f0"],"user":"alice","reason":"dependency restored","requeue":true}`)
	if item, _ := q.Get(); item != htReq("default/f0") {
		t.Fatalf("queue handed out %v, want default/f0", item)
	}
	hp.run("default/f0", reconcile.Result{}, fmt.Errorf("%s", htErrRefused))
	h := e.detail("cm", "default/f0").History
	last := h[len(h)-1]
	if last.Trigger != api.TriggerForget || last.Outcome != "error" || last.By != "alice (unverified)" || last.Reason != "dependency restored" {
		t.Errorf("retry after the forget = %+v, want trigger forget, outcome error, by alice (unverified), reason dependency restored", last)
	}
	if first := h[0]; first.By != "" || first.Reason != "" {
		t.Errorf("attempt before the forget = %+v, want no by/reason", first)
	}
}
