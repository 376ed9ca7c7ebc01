package logs

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// crError is a controller-runtime "Reconciler error" line of key w at ts.
func crError(ts, w string) string {
	return fmt.Sprintf(`{"level":"error","ts":%q,"msg":"Reconciler error","controller":"widget","namespace":"default","name":%q,"reconcileID":"r","error":"boom"}`, ts, w)
}

// readLog reads lines into a new store whose clock is now.
func readLog(t *testing.T, now time.Time, lines ...string) *Store {
	t.Helper()
	s := NewStore(Options{Clock: clocktesting.NewFakePassiveClock(now)})
	if _, _, err := s.Read(context.Background(), strings.NewReader(strings.Join(lines, "\n")+"\n")); err != nil {
		t.Fatal(err)
	}
	return s
}

func keyDetail(t *testing.T, s *Store, controller, k string) *api.KeyDetail {
	t.Helper()
	d, err := s.Key(controller, k)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// A line without a time is "time unknown": no "failing since" it, no retry
// computed from when it was read (Karpenter's console without a time).
func TestUntimedLineInventsNoTime(t *testing.T) {
	raw, err := os.ReadFile("testdata/wild/karpenter-2351.log")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC)
	s := NewStore(Options{Clock: clocktesting.NewFakePassiveClock(now)})
	if _, _, err := s.Read(context.Background(), bytes.NewReader(raw)); err != nil {
		t.Fatal(err)
	}
	k := keyDetail(t, s, "counter", "default")
	if !k.FirstFailureAt.IsZero() || !k.NextRetryAt.IsZero() || !k.LastReconcileAt.IsZero() || k.LastError == nil || !k.LastError.At.IsZero() {
		t.Errorf("untimed key: since %v, next %v, last %v, error %+v; want every time unknown", k.FirstFailureAt, k.NextRetryAt, k.LastReconcileAt, k.LastError)
	}
	if st := s.Stats(); !st.First.IsZero() || !st.Last.IsZero() || s.LogRead().Untimed != 1 {
		t.Errorf("stats %v..%v, untimed %d; want no span, 1 untimed", st.First, st.Last, s.LogRead().Untimed)
	}
}

// Times before 2000 or over a day past the reading clock are unknown, and
// said so; the log's end is its latest plausible time, so one line dated
// 9999 does not turn every other key unknown.
func TestImpossibleTimes(t *testing.T) {
	now := time.Date(2026, 12, 3, 10, 0, 10, 0, time.UTC)
	s := readLog(t, now,
		crError("0001-01-01T00:00:00Z", "zero"),
		crError("2026-12-03T10:00:00Z", "w1"),
		crError("9999-12-31T23:59:59Z", "future"),
		crError("2026-12-03T10:00:04Z", "w2"),
		crError("1970-01-01T00:00:05Z", "epoch"),
	)
	lr := s.LogRead()
	if lr.Implausible != 3 || lr.Untimed != 3 {
		t.Errorf("implausible %d, untimed %d; want 3 and 3", lr.Implausible, lr.Untimed)
	}
	st := s.Stats()
	if want := time.Date(2026, 12, 3, 10, 0, 4, 0, time.UTC); !st.Last.Equal(want) || !st.EndsAt.Equal(want) || !st.First.Equal(want.Add(-4*time.Second)) {
		t.Errorf("log spans %v..%v, ends %v; want 10:00:00..10:00:04, ending at 10:00:04", st.First, st.Last, st.EndsAt)
	}
	for _, w := range []string{"zero", "future", "epoch"} {
		k := keyDetail(t, s, "widget", "default/"+w)
		if !k.LastReconcileAt.IsZero() || !k.FirstFailureAt.IsZero() || !k.NextRetryAt.IsZero() {
			t.Errorf("%s: last %v, since %v, next %v; want unknown", w, k.LastReconcileAt, k.FirstFailureAt, k.NextRetryAt)
		}
	}
	if k := keyDetail(t, s, "widget", "default/w2"); k.State != api.StateBackoff {
		t.Errorf("w2 is %s; want backoff (judged at the log's plausible end)", k.State)
	}
}

// A time is judged plausible by the clock of its own read: a store that
// reads again later takes a line dated past the first read's limit (apply
// keeps the limit of the last clock reading it was given, not of the first).
func TestPlausibleByEachReadsClock(t *testing.T) {
	now := time.Date(2026, 12, 3, 10, 0, 0, 0, time.UTC)
	clock := clocktesting.NewFakePassiveClock(now)
	s := NewStore(Options{Clock: clock})
	read := func(lines ...string) {
		t.Helper()
		if _, _, err := s.Read(context.Background(), strings.NewReader(strings.Join(lines, "\n")+"\n")); err != nil {
			t.Fatal(err)
		}
	}
	read(crError("2026-12-05T10:00:00Z", "early")) // two days ahead of the clock
	clock.SetTime(now.Add(72 * time.Hour))
	read(crError("2026-12-05T10:00:00Z", "later"))
	if lr := s.LogRead(); lr.Implausible != 1 {
		t.Errorf("implausible %d; want 1 (the first read's line alone)", lr.Implausible)
	}
	if k := keyDetail(t, s, "widget", "default/later"); !k.LastReconcileAt.Equal(now.Add(48 * time.Hour)) {
		t.Errorf("later's last reconcile %v; want %v", k.LastReconcileAt, now.Add(48*time.Hour))
	}
}

// Lines out of order (merged from replicas): the history is in time order,
// and the first and last times are the minimum and the maximum.
func TestDisorderedLines(t *testing.T) {
	at := func(s int) string { return fmt.Sprintf("2026-12-03T10:00:0%dZ", s) }
	s := readLog(t, time.Date(2026, 12, 3, 10, 0, 10, 0, time.UTC),
		crError(at(4), "w1"), crError(at(1), "w1"), crError(at(3), "w1"), crError(at(0), "w1"), crError(at(2), "w1"))
	k := keyDetail(t, s, "widget", "default/w1")
	t0 := time.Date(2026, 12, 3, 10, 0, 0, 0, time.UTC)
	if !k.FirstFailureAt.Equal(t0) || !k.LastReconcileAt.Equal(t0.Add(4*time.Second)) || !k.LastError.At.Equal(t0.Add(4*time.Second)) {
		t.Errorf("since %v, last %v, last error %v; want 10:00:00, 10:00:04, 10:00:04", k.FirstFailureAt, k.LastReconcileAt, k.LastError.At)
	}
	if k.Failures != 5 || k.TotalFailures != 5 || k.Reconciles != 5 {
		t.Errorf("failures %d, total %d, reconciles %d; want 5 each", k.Failures, k.TotalFailures, k.Reconciles)
	}
	var times []time.Time
	for _, a := range k.History {
		times = append(times, a.At)
	}
	if len(times) != 5 || !slices.IsSortedFunc(times, func(a, b time.Time) int { return a.Compare(b) }) {
		t.Errorf("history times %v; want 5, in time order", times)
	}
}

// A klog header has no year: it takes the log's (a go-kit ts=2017 line
// beside it), and without a dated line the clock's, said to be assumed.
func TestYearlessHeaders(t *testing.T) {
	now := time.Date(2026, 12, 3, 10, 0, 0, 0, time.UTC)
	klog := `E0720 01:25:02.445320       1 operator.go:304] Sync "monitoring/k8s" failed: boom`
	s := readLog(t, now, crError("2017-07-20T01:25:01Z", "dated"), klog)
	k := keyDetail(t, s, "prometheus-operator", "monitoring/k8s")
	if k.LastReconcileAt.Year() != 2017 || s.LogRead().YearAssumed != 0 {
		t.Errorf("klog line dated %v, %d assumed; want 2017 (the log's year), none assumed", k.LastReconcileAt, s.LogRead().YearAssumed)
	}
	s = readLog(t, now, klog)
	if k := keyDetail(t, s, "prometheus-operator", "monitoring/k8s"); k.LastReconcileAt.Year() != 2026 || s.LogRead().YearAssumed != 1 {
		t.Errorf("klog line dated %v, %d assumed; want the clock's year, said to be assumed", k.LastReconcileAt, s.LogRead().YearAssumed)
	}
}

// FuzzReadTimes feeds the time and prefix parsing (kubelet and CRI
// prefixes, klog headers, epoch and ISO times, logrus' counters) whatever
// line comes, and checks what a log's times must never be: a panic, a time
// before 2000 or over a day past the clock, a streak that starts after its
// key's last reconcile, a history out of order.
func FuzzReadTimes(f *testing.F) {
	for _, seed := range []string{
		crError("0001-01-01T00:00:00Z", "w1"),
		crError("9999-12-31T23:59:59Z", "w1"),
		`2026-12-03T10:00:00.123456789Z stderr F ` + crError("2026-12-03T09:59:59Z", "w1"),
		`E1203 10:00:00.000000       1 controller.go:1] "Reconciler error" err="x" controller="c" namespace="n" name="o"`,
		`E0229 10:00:00.000000       1 stateful_set.go:395] Error syncing StatefulSet kube-system/prometheus, requeuing: x`,
		`{"level":"error","ts":1.6523912325494506e+09,"msg":"Reconciler error","controller":"c","request":"n/o","error":"e"}`,
		`{"level":"error","ts":1e300,"msg":"Reconciler error","controller":"c","request":"n/o","error":"e"}`,
		`WARN[228517] Dropping Longhorn volume ns/x out of the queue: fail to sync ns/x: e`,
		`ERRO[2021-07-15T11:41:10-04:00] Reconciler error  controller=c name=x namespace=n`,
		`time="2021-03-13T01:57:47Z" level=error msg="Error in syncHandler, re-adding item to queue" controller=c error=e key=n/o`,
		`[pod/p/c] 2026-12-03T10:00:00Z Jul 26 12:42:26 host kcm[1]: E0726 12:42:26.557562 1 deployment_controller.go:1] Error syncing deployment n/o: e`,
	} {
		f.Add(seed + "\n" + crError("2026-12-03T10:00:01Z", "w1"))
	}
	now := time.Date(2026, 12, 3, 10, 0, 10, 0, time.UTC)
	f.Fuzz(func(t *testing.T, log string) {
		s := NewStore(Options{Clock: clocktesting.NewFakePassiveClock(now)})
		if _, _, err := s.Read(context.Background(), strings.NewReader(log)); err != nil {
			t.Fatal(err)
		}
		sane := func(at time.Time) bool { return at.IsZero() || plausible(at, now) }
		st := s.Stats()
		if !sane(st.First) || !sane(st.Last) || st.First.After(st.Last) {
			t.Fatalf("log spans %v..%v", st.First, st.Last)
		}
		for _, c := range s.Controllers().Controllers {
			_, keys := s.views(c.Name)
			for _, k := range keys {
				d, err := s.Key(k.Controller, k.Key)
				if err != nil {
					t.Fatal(err)
				}
				for _, at := range []time.Time{d.FirstFailureAt, d.LastReconcileAt, d.NextRetryAt, d.LastSuccessAt} {
					if !sane(at) && !at.After(now) {
						t.Fatalf("%s %s: time %v", k.Controller, k.Key, at)
					}
				}
				if !d.FirstFailureAt.IsZero() && !d.LastReconcileAt.IsZero() && d.FirstFailureAt.After(d.LastReconcileAt) {
					t.Fatalf("%s %s: failing since %v, after its last reconcile %v", k.Controller, k.Key, d.FirstFailureAt, d.LastReconcileAt)
				}
				for i := 1; i < len(d.History); i++ {
					if a, b := d.History[i-1].At, d.History[i].At; !a.IsZero() && !b.IsZero() && b.Before(a) {
						t.Fatalf("%s %s: history out of order: %v then %v", k.Controller, k.Key, a, b)
					}
				}
			}
		}
	})
}
