package instrument

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/client-go/tools/record"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// auditEnv is a controller of ConfigMaps whose probe records Events on a fake
// recorder, with failing keys default/f0 and default/f1 and a logging handler.
func auditEnv(t *testing.T, kind schema.GroupVersionKind) (*htEnv, *htLog, *record.FakeRecorder) {
	e := newHTEnv(t)
	events := record.NewFakeRecorder(10)
	events.IncludeObject = true
	p := New("cm", Options{Registry: e.reg, Clock: e.clk, Kind: kind, EventRecorder: events, DisableMetrics: true})
	hp := &htProbe{env: e, p: p, rl: p.RateLimiter(NewExponentialLimiter[reconcile.Request](time.Second, time.Hour))}
	e.probes["cm"] = hp
	for _, k := range []string{"default/f0", "default/f1"} {
		hp.run(k, reconcile.Result{}, fmt.Errorf("%s", htErrRefused))
	}
	logs := &htLog{}
	e.h = NewHandler(HandlerOptions{Registry: e.reg, Logger: logs.logger(t)})
	return e, logs, events
}

var configMapKind = schema.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}

// drain returns the events recorded so far.
func drain(events *record.FakeRecorder) []string {
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
	const cmObject = " involvedObject{kind=ConfigMap,apiVersion=v1}"
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
		wantEvents: []string{"Normal BackoffReset backoff reset by alice (unverified): dependency restored" + cmObject},
	}, {
		name:       "neither",
		body:       `{"controller":"cm","keys":["default/f0","default/f1"]}`,
		kind:       configMapKind,
		wantEvents: []string{"Normal BackoffReset backoff reset" + cmObject, "Normal BackoffReset backoff reset" + cmObject},
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
	events.IncludeObject = false
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
