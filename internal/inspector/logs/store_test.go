package logs

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	clocktesting "k8s.io/utils/clock/testing"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

func TestLimiterDelay(t *testing.T) {
	tests := []struct {
		n    int
		want time.Duration
	}{
		{0, 0}, {1, 5 * time.Millisecond}, {2, 10 * time.Millisecond}, {4, 40 * time.Millisecond},
		{18, 655360 * time.Millisecond}, {19, 1000 * time.Second}, {500, 1000 * time.Second},
	}
	for _, tt := range tests {
		if got := DefaultLimiter.Delay(tt.n); got != tt.want {
			t.Errorf("Delay(%d) = %v, want %v", tt.n, got, tt.want)
		}
	}
}

func TestClassify(t *testing.T) {
	tests := []struct {
		msg      string
		terminal bool
		want     string
	}{
		{"dial tcp 10.0.0.7:443: connect: connection refused", false, api.ClassTransient},
		{`Operation cannot be fulfilled on widgets "a": the object has been modified`, false, api.ClassTransient},
		{"context deadline exceeded", false, api.ClassTransient},
		{`widgets "a" is forbidden: User "x" cannot update`, false, api.ClassPermanent},
		{`spec.size: Invalid value: -1`, false, api.ClassPermanent},
		{`configmaps "a" not found`, false, api.ClassPermanent},
		{"something odd", false, api.ClassUnknown},
		{"invalid response: connection refused", false, api.ClassUnknown}, // both: not guessed
		{"connection refused", true, api.ClassPermanent},                  // terminal: never retried
	}
	for _, tt := range tests {
		if got := Classify(tt.msg, tt.terminal); got != tt.want {
			t.Errorf("Classify(%q, %v) = %q, want %q", tt.msg, tt.terminal, got, tt.want)
		}
	}
}

// rec builds a record of controller "c" for key at t0+at.
var t0 = time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)

func rec(what What, key string, at time.Duration, msg string) Record {
	ns, name := splitRef(key)
	r := Record{What: what, At: t0.Add(at), Controller: "c", Namespace: ns, Name: name, Error: msg}
	r.Terminal = strings.HasPrefix(msg, terminalPrefix)
	return r
}

// preemptRecords are ten failures of a/b on time, and an eleventh 50ms
// after the tenth, 5.07s before its retry.
func preemptRecords() []Record {
	ms := time.Millisecond
	return []Record{rec(ErrorLine, "a/b", 0, "boom"), rec(ErrorLine, "a/b", 5*ms, "boom"), rec(ErrorLine, "a/b", 10*ms, "boom"),
		rec(ErrorLine, "a/b", 30*ms, "boom"), rec(ErrorLine, "a/b", 70*ms, "boom"), rec(ErrorLine, "a/b", 150*ms, "boom"),
		rec(ErrorLine, "a/b", 310*ms, "boom"), rec(ErrorLine, "a/b", 630*ms, "boom"), rec(ErrorLine, "a/b", 1270*ms, "boom"),
		rec(ErrorLine, "a/b", 2550*ms, "boom"), rec(ErrorLine, "a/b", 2600*ms, "boom")}
}

// TestStoreReconstruction checks the per-key reconstruction on records.
func TestStoreReconstruction(t *testing.T) {
	const boom = "dial tcp: connection refused"
	ms := time.Millisecond
	tests := []struct {
		name    string
		records []Record
		now     time.Duration // the clock, for a live store
		want    string        // state failures total next-retry-offset delay trigger-of-last
	}{
		{"three failures, on time",
			[]Record{rec(ErrorLine, "a/b", 0, boom), rec(ErrorLine, "a/b", 5*ms, boom), rec(ErrorLine, "a/b", 15*ms, boom)},
			16 * ms, "backoff 3 3 35ms 20ms retry"},
		{"quiet past the retry: unknown, never idle",
			[]Record{rec(ErrorLine, "a/b", 0, boom), rec(ErrorLine, "a/b", 5*ms, boom)},
			time.Minute, "unknown 2 2 15ms 10ms retry"},
		// Without V(5) lines a success is not logged: why an attempt ran off
		// its retry's time is inferred (late, sooner), never stated.
		{"a failure long after the expected retry starts a new streak, late",
			[]Record{rec(ErrorLine, "a/b", 0, boom), rec(ErrorLine, "a/b", 5*ms, boom), rec(ErrorLine, "a/b", time.Hour, boom)},
			time.Hour, "backoff 1 3 1h0m0.005s 5ms late"},
		{"a failure 3s after its 10ms retry is late, though the streak goes on",
			[]Record{rec(ErrorLine, "a/b", 0, boom), rec(ErrorLine, "a/b", 5*ms, boom), rec(ErrorLine, "a/b", 3*time.Second, boom)},
			3 * time.Second, "backoff 3 3 5.995s 2.995s late"}, // the spacing is the estimate (estimate.delay)
		{"an attempt before the retry is sooner, and still counts",
			preemptRecords(), 2600 * ms, "backoff 11 11 7.72s 5.12s sooner"},
		{"with V(5) lines, an attempt before the retry is an event that preempted it",
			append([]Record{rec(StartLine, "x/y", 0, "")}, preemptRecords()...), 2600 * ms, "backoff 11 11 7.72s 5.12s event"},
		{"terminal keeps the count and does not retry",
			[]Record{rec(ErrorLine, "a/b", 0, boom), rec(ErrorLine, "a/b", 5*ms, "terminal error: bad spec")},
			time.Hour, "failed 1 2 - 0s retry"},
		{"V(5): success forgets",
			[]Record{rec(StartLine, "a/b", 0, ""), rec(ErrorLine, "a/b", ms, boom), rec(StartLine, "a/b", 6*ms, ""), rec(SuccessLine, "a/b", 7*ms, "")},
			time.Hour, "idle 0 1 - 0s retry"},
		{"V(5): requeue-after is scheduled, then unknown when quiet",
			[]Record{rec(ErrorLine, "a/b", 0, boom), func() Record { r := rec(RequeueAfterLine, "a/b", ms, ""); r.RequeueAfter = time.Minute; return r }()},
			30 * time.Second, "scheduled 0 1 1m0.001s 1m0s retry"},
		{"V(5): the RequeueAfter's time comes",
			[]Record{func() Record { r := rec(RequeueAfterLine, "a/b", 0, ""); r.RequeueAfter = time.Second; return r }(),
				rec(StartLine, "a/b", time.Second, ""), rec(SuccessLine, "a/b", time.Second+time.Millisecond, "")},
			time.Hour, "idle 0 0 - 0s requeue-after"},
		{"V(5): Requeue: true backs off without an error",
			[]Record{rec(RequeueLine, "a/b", 0, ""), rec(RequeueLine, "a/b", 5*ms, "")},
			6 * ms, "backoff 2 0 15ms 10ms retry"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := NewStore(Options{Live: true, Clock: clocktesting.NewFakePassiveClock(t0.Add(tt.now))})
			for _, r := range tt.records {
				s.Add(r)
			}
			d, err := s.Key("c", "a/b")
			if err != nil {
				t.Fatalf("Key: %v", err)
			}
			k := d.Key
			next := "-"
			if !k.NextRetryAt.IsZero() {
				next = k.NextRetryAt.Sub(t0).String()
			}
			trigger := k.History[len(k.History)-1].Trigger
			if trigger == "" {
				trigger = "-"
			}
			got := fmt.Sprintf("%s %d %d %s %v %s", k.State, k.Failures, k.TotalFailures, next, k.Delay.Duration, trigger)
			if got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
			if k.Source != api.SourceLogs || !k.Estimated {
				t.Errorf("source = %q, estimated = %v; want %q, true", k.Source, k.Estimated, api.SourceLogs)
			}
		})
	}
}

// TestStoreMaxKeys checks memory stays bounded: settled keys go first.
func TestStoreMaxKeys(t *testing.T) {
	const maxKeys = 200
	s := NewStore(Options{MaxKeys: maxKeys})
	// Failing keys first, then settled (terminal) ones, then failing again.
	for i := range maxKeys / 2 {
		s.Add(rec(ErrorLine, fmt.Sprintf("ns/busy-%d", i), time.Duration(i)*time.Millisecond, "boom"))
	}
	for i := range maxKeys {
		s.Add(rec(ErrorLine, fmt.Sprintf("ns/done-%d", i), time.Second, "terminal error: x"))
	}
	for i := range maxKeys / 2 {
		s.Add(rec(ErrorLine, fmt.Sprintf("ns/late-%d", i), time.Second, "boom"))
	}
	if got := s.Len(); got > maxKeys {
		t.Errorf("Len = %d, want at most %d", got, maxKeys)
	}
	for _, key := range []string{"ns/busy-0", "ns/busy-99", "ns/late-99"} {
		if _, err := s.Key("c", key); err != nil {
			t.Errorf("%s evicted before the settled keys: %v", key, err)
		}
	}
}

// TestStoreFromRealLog reads a real controller's log (zap JSON, epoch
// times, the default verbosity) and compares the reconstruction with what
// the controller did: 4 failures with the default limiter, then nothing
// logged for the success that followed.
func TestStoreFromRealLog(t *testing.T) {
	const fails = 4
	rc := startReal(t, formats[1], false, true, func(_ string, n int) (reconcile.Result, error) {
		if n <= fails {
			return reconcile.Result{}, errRefused
		}
		return reconcile.Result{}, nil
	})
	rc.send("default/w1")
	rc.waitLines("4 errors", func(l []string) bool { return countLines(l, msgError) == fails })
	lines := rc.buf.lines()

	clk := clocktesting.NewFakePassiveClock(time.Now())
	s := NewStore(Options{Live: true, Clock: clk})
	if _, _, err := s.Read(context.Background(), strings.NewReader(strings.Join(lines, "\n"))); err != nil {
		t.Fatalf("Read: %v", err)
	}
	d, err := s.Key("", "default/w1")
	if err != nil {
		t.Fatalf("Key: %v", err)
	}
	k := d.Key
	if k.Failures != fails || k.TotalFailures != fails || k.SameErrorCount != fails {
		t.Errorf("failures = %d, total = %d, same = %d; want %d", k.Failures, k.TotalFailures, k.SameErrorCount, fails)
	}
	if got, want := k.Delay.Duration, 40*time.Millisecond; got != want {
		t.Errorf("delay = %v, want %v (5ms·2^3)", got, want)
	}
	last := k.History[len(k.History)-1].At
	if got, want := k.NextRetryAt, last.Add(40*time.Millisecond); !got.Equal(want) {
		t.Errorf("nextRetryAt = %v, want the last failure + 40ms = %v", got, want)
	}
	if k.LastError == nil || k.LastError.Message != errRefused.Error() || k.LastError.Class != api.ClassTransient {
		t.Errorf("lastError = %+v, want %q (transient)", k.LastError, errRefused)
	}
	// The success that followed is not logged: the key goes unknown.
	clk.SetTime(last.Add(time.Minute))
	if d, _ := s.Key("", "default/w1"); d.State != api.StateUnknown {
		t.Errorf("a minute later: state = %s, want %s", d.State, api.StateUnknown)
	}
	ov := s.Controllers()
	if len(ov.Controllers) != 1 || ov.Controllers[0].Kind == nil || ov.Controllers[0].Kind.Kind != "ConfigMap" || !ov.Source.Logged() {
		t.Errorf("controllers = %+v, want widget of kind ConfigMap from logs", ov.Controllers)
	}
}

// TestStoreQueueItems runs a real priority queue at V(5) until it logs its
// workqueue_items (every 10s: this test takes that long) and checks the
// key's retry is the queue's own readyAt, not an estimate.
func TestStoreQueueItems(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for the priority queue's 10s log tick")
	}
	for _, f := range []loggerFormat{formats[0], formats[4]} {
		t.Run(f.name, func(t *testing.T) {
			rc := startReal(t, f, true, false, scenario)
			rc.send("default/w3")
			lines := rc.waitLines("workqueue_items", func(l []string) bool { return countLines(l, msgQueue) >= 1 })
			s := NewStore(Options{})
			if _, _, err := s.Read(context.Background(), strings.NewReader(strings.Join(lines, "\n"))); err != nil {
				t.Fatalf("Read: %v", err)
			}
			var item QueueItem
			for _, l := range lines {
				if r, ok := Parse([]byte(l), time.Now()); ok && r.What == QueueLine && len(r.Items) == 1 {
					item = r.Items[0]
				}
			}
			if item.Key != "default/w3" || item.ReadyAt.IsZero() {
				t.Fatalf("queue item = %+v, want default/w3 with a readyAt", item)
			}
			d, err := s.Key("widget", "default/w3")
			if err != nil {
				t.Fatal(err)
			}
			if d.State != api.StateScheduled || !d.NextRetryAt.Equal(item.ReadyAt) || d.DelaySource != api.SourceRequeueAfter {
				t.Errorf("state %s, nextRetryAt %v (%s); want scheduled at the queue's %v (requeue-after)", d.State, d.NextRetryAt, d.DelaySource, item.ReadyAt)
			}
		})
	}
}

// TestStoreErrorBounded checks a huge error is kept truncated, whole runes.
func TestStoreErrorBounded(t *testing.T) {
	s := NewStore(Options{})
	long := strings.Repeat("é", maxErrorBytes)
	s.Add(rec(ErrorLine, "a/b", 0, long))
	s.Add(rec(ErrorLine, "a/b", time.Millisecond, long))
	d, err := s.Key("c", "a/b")
	if err != nil {
		t.Fatal(err)
	}
	msg := d.LastError.Message
	if len(msg) > maxErrorBytes || !strings.HasSuffix(msg, "…") || !utf8.ValidString(msg) {
		t.Errorf("last error: %d bytes, valid UTF-8 %v, want at most %d ending in …", len(msg), utf8.ValidString(msg), maxErrorBytes)
	}
	if d.SameErrorCount != 2 || d.History[1].Error != msg {
		t.Errorf("same error count = %d, history error equal = %v; want 2, true", d.SameErrorCount, d.History[1].Error == msg)
	}
}

// TestReadKlogMultiLine reads a real controller's klog line whose error
// spans lines (errors.Join), bare and with the kubelet's timestamp on every
// physical line, as pods/log?timestamps=true sends it.
func TestReadKlogMultiLine(t *testing.T) {
	joined := errors.Join(errors.New(`quota "q" exceeded`), errors.New("retry later"))
	rc := startReal(t, formats[4], false, true, func(string, int) (reconcile.Result, error) {
		return reconcile.Result{}, reconcile.TerminalError(joined)
	})
	rc.send("default/w1")
	lines := rc.waitLines("the error's last line", func(l []string) bool { return countLines(l, " > controller=") >= 1 })
	stamped := make([]string, len(lines))
	for i, l := range lines {
		stamped[i] = time.Now().UTC().Format(time.RFC3339Nano) + " " + l
	}
	for name, log := range map[string][]string{"bare": lines, "kubelet timestamps": stamped} {
		t.Run(name, func(t *testing.T) {
			s := NewStore(Options{})
			if _, _, err := s.Read(context.Background(), strings.NewReader(strings.Join(log, "\n")+"\n")); err != nil {
				t.Fatal(err)
			}
			d, err := s.Key("widget", "default/w1")
			if err != nil {
				t.Fatalf("Key: %v (log:\n%s)", err, strings.Join(log, "\n"))
			}
			if want := "terminal error: " + joined.Error(); d.LastError == nil || d.LastError.Message != want || d.State != api.StateFailed {
				t.Errorf("state %s, last error %+v; want failed with %q", d.State, d.LastError, want)
			}
		})
	}
}

// A saved log is judged as of its last line, and v1/controllers says so
// (source.endsAt), so that a client can say what its countdowns count from; a
// live log is judged at the clock, and says nothing. The fixture's last
// line is stamped 2024-02-12T05:56:07.288Z.
func TestStoreSavedLogEndsAt(t *testing.T) {
	end := time.Date(2024, 2, 12, 5, 56, 7, 288_000_000, time.UTC)
	for _, live := range []bool{false, true} {
		f, err := os.Open("testdata/wild/flux2-4509.log")
		if err != nil {
			t.Fatal(err)
		}
		s := NewStore(Options{Live: live, Clock: clocktesting.NewFakePassiveClock(end.Add(time.Hour))})
		_, _, err = s.Read(context.Background(), f)
		f.Close()
		if err != nil {
			t.Fatalf("Read: %v", err)
		}
		cl := s.Controllers()
		if len(cl.Controllers) != 1 {
			t.Fatalf("live %v: controllers %+v, want kustomization", live, cl.Controllers)
		}
		got := cl.Source.EndsAt
		switch {
		case !live && (!got.Equal(end) || !cl.ServerTime.Equal(end)):
			t.Errorf("saved: source endsAt %v, serverTime %v; want both the last line's %v", got, cl.ServerTime, end)
		case live && (!got.IsZero() || !cl.ServerTime.Equal(end.Add(time.Hour))):
			t.Errorf("live: source endsAt %v, serverTime %v; want none, and the clock's %v", got, cl.ServerTime, end.Add(time.Hour))
		}
	}
}
