package widget

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
)

// TestReadFactsBothRenderings: every count a LogRead holds is said once,
// in one order, by both renderings of the note; the header leaves out only
// the year assumed, and the impossible times are apart from the untimed
// ones (they are counted in Untimed too, so never twice).
func TestReadFactsBothRenderings(t *testing.T) {
	lr := &api.LogRead{Lines: 1234, Recognised: map[string]int{"Flux (JSON)": 3, "controller-runtime (JSON)": 120},
		Unreadable: 1, Example: `{"msg":"Reconciler error"}`, Untimed: 5, Implausible: 2, YearAssumed: 7}
	var long []string
	for _, f := range explain.ReadFacts(lr) {
		long = append(long, f.Long)
	}
	wantLong := []string{
		"read 1,234 lines",
		"recognised: Flux (JSON) 3, controller-runtime (JSON) 120",
		"3 without a time I could read (their times are unknown: nothing is counted from them)",
		"2 with a time that cannot be true (before 2000, or over a day past this clock), read as unknown",
		"7 dated without a year (klog) in a log that names none: the year is this clock's, an assumption",
		"1 line looked like a failure but could not be read, e.g.:",
	}
	if got, want := strings.Join(long, "\n"), strings.Join(wantLong, "\n"); got != want {
		t.Errorf("ReadFacts' Long =\n%s\nwant\n%s", got, want)
	}
	s := NewStyles(true)
	if got, want := ansi.Strip(LogReadPart(&s, lr)), "log 1,234 lines, Flux (JSON) 3, controller-runtime (JSON) 120, 3 without a time, 2 with an impossible time, 1 failure line unreadable"; got != want {
		t.Errorf("LogReadPart = %q, want %q", got, want)
	}
	if got, want := ansi.Strip(LogReadPart(&s, &api.LogRead{Lines: 10})), "log 10 lines, none recognised"; got != want {
		t.Errorf("LogReadPart of nothing recognised = %q, want %q", got, want)
	}
	// A pipe that closed (top --from-logs - after kubectl logs -f ended):
	// said second, where 80 columns still show it.
	if got, want := ansi.Strip(LogReadPart(&s, &api.LogRead{Lines: 300, Recognised: map[string]int{"controller-runtime (JSON)": 282}, Ended: true})),
		"log 300 lines, input ended, controller-runtime (JSON) 282"; got != want {
		t.Errorf("LogReadPart of an ended pipe = %q, want %q", got, want)
	}
}
