package logs

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	clocktesting "k8s.io/utils/clock/testing"
)

// TestInnerCauseNotUnreadable: kube-controller-manager's job controller
// logs each failed attempt twice, the pod's creation error where it
// happens (job_controller.go:1941, naming no key) and the handler's
// "syncing job: " wrapping of it (job_controller.go:753). The attempt is
// counted once, and the inner line is not "a line that looked like a
// failure but could not be read": its error was read, and --explain-lines
// says it was read as the inner cause of the handler's line's attempt.
// The same line is still counted, and explained, as not read when nothing
// wraps it: when the handler's line is taken away, or the inner line came
// over a second before it.
func TestInnerCauseNotUnreadable(t *testing.T) {
	raw, err := os.ReadFile("testdata/kcm/job-podsecurity-v2.log")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(raw), "\n")
	var inner, handler int // the first pair's lines
	for i, l := range lines {
		switch {
		case inner == 0 && strings.Contains(l, "job_controller.go:1941]"):
			inner = i
		case inner > 0 && strings.Contains(l, "job_controller.go:753]"):
			handler = i
		}
		if handler > 0 {
			break
		}
	}
	if inner == 0 || handler == 0 {
		t.Fatal("the fixture has no inner line and handler line")
	}
	without := func(i int) string { return strings.Join(append(append([]string{}, lines[:i]...), lines[i+1:]...), "") }
	// The inner line two seconds earlier, in both its times (the
	// container runtime's and klog's).
	early := strings.ReplaceAll(lines[inner], "15:21:29.", "15:21:27.")
	if strings.Count(early, "15:21:27.") != 2 {
		t.Fatalf("the inner line %q does not hold the two times the test moves", lines[inner])
	}
	for _, c := range []struct {
		name       string
		log        string
		unreadable int
		failures   int
		explained  string // the inner line's --explain-lines reading
	}{
		{"whole", string(raw), 0, 5, fmt.Sprintf("read as the inner cause of line %d's attempt, counted once, there", handler+1)},
		{"no handler line", without(handler), 1, 4, "looked like a failure, not read"},
		{"the inner line two seconds earlier", strings.Replace(string(raw), lines[inner], early, 1), 1, 5, "looked like a failure, not read"},
	} {
		t.Run(c.name, func(t *testing.T) {
			clk := clocktesting.NewFakePassiveClock(time.Date(2026, 12, 6, 15, 27, 24, 0, time.UTC))
			var readings []LineReading
			explained := NewStore(Options{Clock: clk, ExplainLines: func(lr LineReading) { readings = append(readings, lr) }})
			if _, _, err := explained.Read(context.Background(), strings.NewReader(c.log)); err != nil {
				t.Fatal(err)
			}
			var got []string
			for i, lr := range readings {
				if i > 0 && lr.Line <= readings[i-1].Line {
					t.Errorf("line %d explained after line %d", lr.Line, readings[i-1].Line)
				}
				if lr.Line == inner+1 {
					got = append(got, lr.Meaning)
				}
			}
			if len(got) != 1 || got[0] != c.explained {
				t.Errorf("the inner line %d explained as %q, want once as %q", inner+1, got, c.explained)
			}
			s := NewStore(Options{Clock: clk})
			if _, _, err := s.Read(context.Background(), bytes.NewReader([]byte(c.log))); err != nil {
				t.Fatal(err)
			}
			if got := s.LogRead().Unreadable; got != c.unreadable {
				t.Errorf("%d lines looked like failures but could not be read, want %d", got, c.unreadable)
			}
			k, err := s.Key("job-controller", "psa/migrate")
			if err != nil {
				t.Fatal(err)
			}
			if k.TotalFailures != c.failures {
				t.Errorf("%d failures, want %d", k.TotalFailures, c.failures)
			}
		})
	}
}
