package logs

import (
	"testing"
	"time"

	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// TestFirstReconcileHasNoTrigger: a key's first reconcile in a log was
// labelled an event (a failure's count went up before why it ran was
// read), yet the log may start mid-stream: it could be a retry of a
// failure before the first line, a watch event or the key's first
// reconcile. Its trigger is left empty, shown "-" as a trigger nobody
// said; a reconcile after a terminal error is still an event (nothing
// else re-adds the key), with or without V(5) lines.
func TestFirstReconcileHasNoTrigger(t *testing.T) {
	const boom, terminal = "dial tcp: connection refused", "terminal error: bad spec"
	ms := time.Millisecond
	tests := []struct {
		name    string
		records []Record
		want    []string
	}{
		{"one failure", []Record{rec(ErrorLine, "a/b", 0, boom)}, []string{""}},
		{"a terminal error, then an attempt",
			[]Record{rec(ErrorLine, "a/b", 0, terminal), rec(ErrorLine, "a/b", time.Minute, terminal)},
			[]string{"", api.TriggerEvent}},
		{"V(5): started, failed, and again on time",
			[]Record{rec(StartLine, "a/b", 0, ""), rec(ErrorLine, "a/b", ms, boom), rec(StartLine, "a/b", 6*ms, ""), rec(ErrorLine, "a/b", 7*ms, boom)},
			[]string{"", api.TriggerRetry}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := NewStore(Options{Live: true, Clock: clocktesting.NewFakePassiveClock(t0.Add(time.Hour))})
			for _, r := range tt.records {
				s.Add(r)
			}
			d, err := s.Key("c", "a/b")
			if err != nil {
				t.Fatalf("Key: %v", err)
			}
			var got []string
			for _, a := range d.Key.History {
				got = append(got, a.Trigger)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("triggers %q, want %q", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("triggers %q, want %q", got, tt.want)
					break
				}
			}
		})
	}
}
