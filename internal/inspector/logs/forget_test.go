package logs

import (
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/workqueue"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/kubectl-backoff/kubectl-backoff/instrument"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// forgetLines runs the instrument's real handler with logger format f as
// HandlerOptions.Logger (the controller's logger, as the handler's default
// is controller-runtime's): a probe "widget" whose limiter has counted two
// failures of default/w1 and one of default/w2, and a forget of both by
// alice. It returns the lines the handler logged: no line is hand-written.
func forgetLines(t *testing.T, f loggerFormat) []string {
	t.Helper()
	buf := &logBuffer{}
	log := f.new(buf, false).WithName("backoff")
	reg := instrument.NewRegistry()
	probe := instrument.New("widget", instrument.Options{Registry: reg})
	lim := probe.RateLimiter(workqueue.DefaultTypedControllerRateLimiter[reconcile.Request]())
	w1 := reconcile.Request{NamespacedName: types.NamespacedName{Namespace: "default", Name: "w1"}}
	w2 := reconcile.Request{NamespacedName: types.NamespacedName{Namespace: "default", Name: "w2"}}
	lim.When(w1)
	lim.When(w1)
	lim.When(w2)
	srv := httptest.NewServer(instrument.NewHandler(instrument.HandlerOptions{Registry: reg, Logger: &log}))
	defer srv.Close()
	body := `{"controller":"widget","keys":["default/w1","default/w2"],"user":"alice","reason":"db restored"}`
	resp, err := http.Post(srv.URL+api.DefaultPrefix+"v1/forget", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("forget: %d", resp.StatusCode)
	}
	return buf.lines()
}

// TestParseForgetLine: the handler's "forgot backoff" line, in each format a
// controller logs in, names the controller, the keys with the failures they
// had, in the forget's order, and who forgot them and why.
func TestParseForgetLine(t *testing.T) {
	for _, f := range formats {
		t.Run(f.name, func(t *testing.T) {
			lines := forgetLines(t, f)
			if len(lines) != 1 {
				t.Fatalf("%d lines logged; want the one forget line:\n%s", len(lines), strings.Join(lines, "\n"))
			}
			r, ok := Parse([]byte(lines[0]), time.Now())
			if !ok {
				t.Fatalf("not read: %s", lines[0])
			}
			want := []ForgotKey{{Key: "default/w1", Failures: 2}, {Key: "default/w2", Failures: 1}}
			if r.What != ForgetLine || r.Controller != "widget" || !reflect.DeepEqual(r.Forgot, want) || r.Count != 2 ||
				r.Requeue || r.User != "alice"+api.UnverifiedSuffix || r.Reason != "db restored" || r.At.IsZero() {
				t.Errorf("read %+v from\n%s\nwant a forget of %v by alice, for \"db restored\"", r, lines[0], want)
			}
		})
	}
}

// TestStoreForget: a forget line resets the count of the keys it names, not
// their streak; without requeue a pending retry keeps its time, with requeue
// the retry is released (the next reconcile ran for the forget), spread
// over the forget's Spread in the order it names them.
func TestStoreForget(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	fail := func(key string, at time.Time) Record {
		return Record{What: ErrorLine, At: at, Controller: "widget", Namespace: "default", Name: key, Error: "spec.storageClass must be set"}
	}
	forget := func(at time.Time, requeue bool, spread time.Duration, keys ...string) Record {
		r := Record{What: ForgetLine, At: at, Controller: "widget", Requeue: requeue, Spread: spread, User: "alice", Reason: "fixed", Count: len(keys)}
		for _, k := range keys {
			r.Forgot = append(r.Forgot, ForgotKey{Key: k, Failures: 3})
		}
		return r
	}
	s := NewStore(Options{})
	// Three failures each, 5ms, 10ms and 20ms apart (a second apart in the
	// log's times): the retry is due 40ms after the third.
	for _, k := range []string{"w1", "w2", "w3"} {
		for i := range 3 {
			s.Add(fail(k, t0.Add(time.Duration(i)*time.Second)))
		}
	}
	at := t0.Add(3 * time.Second)
	s.Add(forget(at, false, 0, "default/w1"))
	s.Add(forget(at, true, 10*time.Second, "default/w2", "default/w3"))

	w1 := key(t, s, "default/w1")
	if w1.Failures != 0 || w1.State != api.StateBackoff || !w1.NextRetryAt.Equal(t0.Add(2*time.Second+20*time.Millisecond)) ||
		!w1.FirstFailureAt.Equal(t0) || w1.LastReset == nil || w1.LastReset.Failures != 3 || w1.LastReset.User != "alice" {
		t.Errorf("w1 forgotten without requeue: %s, %d failures, retry %v, failing since %v, reset %+v; want 0 failures, the retry due 2.02s in, since the first failure",
			w1.State, w1.Failures, w1.NextRetryAt, w1.FirstFailureAt, w1.LastReset)
	}
	// w2 is the first of two: released at once; w3 after half the spread.
	w2, w3 := key(t, s, "default/w2"), key(t, s, "default/w3")
	if w2.State != api.StateQueued || w2.Failures != 0 {
		t.Errorf("w2: %s after %d failures; want queued, 0 (released now)", w2.State, w2.Failures)
	}
	if w3.State != api.StateBackoff || !w3.NextRetryAt.Equal(at.Add(5*time.Second)) || w3.DelaySource != api.SourceSpread {
		t.Errorf("w3: %s, retry %v from %q; want backoff, released at %v by the spread", w3.State, w3.NextRetryAt, w3.DelaySource, at.Add(5*time.Second))
	}
	if last := w2.History[len(w2.History)-1]; last.Outcome != api.OutcomeForgotten || last.By != "alice" || last.Reason != "fixed" {
		t.Errorf("w2's last attempt %+v; want the forget by alice", last)
	}

	// w2 fails again: the count restarts at 1, the attempt ran for the forget.
	s.Add(fail("w2", at))
	w2 = key(t, s, "default/w2")
	last := w2.History[len(w2.History)-1]
	if w2.Failures != 1 || w2.Delay.Duration != 5*time.Millisecond || !w2.FirstFailureAt.Equal(t0) ||
		last.Trigger != api.TriggerForget || last.By != "alice" || last.Preempted {
		t.Errorf("w2 after the forget: %d failures, delay %v, since %v, last attempt %+v; want 1, 5ms, since %v, run by alice's forget",
			w2.Failures, w2.Delay.Duration, w2.FirstFailureAt, last, t0)
	}
}

func key(t *testing.T, s *Store, k string) api.Key {
	t.Helper()
	d, err := s.Key("widget", k)
	if err != nil {
		t.Fatal(err)
	}
	return d.Key
}
