package cli

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
)

// wantWithin fails t for each line of out wider than width cells: what a
// terminal of that width would wrap.
func wantWithin(t *testing.T, out string, width int) {
	t.Helper()
	for line := range strings.Lines(out) {
		if w := ansi.StringWidth(strings.TrimSuffix(line, "\n")); w > width {
			t.Errorf("a line of %d cells on an %d-cell terminal: %q", w, width, line)
		}
	}
}

// screenWidthForTest makes every writer a terminal of width cells until
// the returned func is called.
func screenWidthForTest(width int) func() {
	old, undo := screenWidth, onTerminalForTest(true)
	screenWidth = func(io.Writer) int { return width }
	return func() { screenWidth = old; undo() }
}

// TestDescribeFitsATerminal: describe of the demo's outage key on an
// 80-column terminal broke its diagnosis mid-word at the edge ("Ever\ny
// retry") and its History rows after CLASS, each error wrapping to column
// 0. Fitted, no line passes 80 cells, no word is split, and the table
// leaves out TOOK and CLASS for ERROR; piped, every column and error whole.
func TestDescribeFitsATerminal(t *testing.T) {
	const outage = "sync with inventory API: PUT https://inventory.demo.svc/v1/items/outage-00003: 503 Service Unavailable"
	at := time.Date(2026, 12, 7, 10, 57, 45, 0, time.UTC)
	var hist []api.Attempt
	for i := range 6 {
		hist = append(hist, api.Attempt{At: at.Add(time.Duration(i) * 10 * time.Second), Outcome: api.OutcomeError,
			Error: outage, Class: api.ClassTransient, Trigger: api.TriggerRetry})
	}
	d := explain.ControllerDiagnosis{Controller: "outage", Situation: "outage",
		Summary:  "100 keys backing off since 10:57:45 on one transient error (" + outage + ")",
		Findings: []explain.Finding{{Message: "The token bucket is empty, 99 tokens owed: a new retry waits about 10s. Every retry of this controller is throttled to 10 per second."}}}

	defer screenWidthForTest(80)()
	var b bytes.Buffer
	printControllerDiagnosis(&b, d)
	printHistory(&b, hist, 0)
	out := b.String()
	wantWithin(t, out, 80)
	for _, word := range []string{"Every", "throttled", "https://inventory.demo.svc/v1/items/outage-00003:"} {
		if !strings.Contains(out, word) {
			t.Errorf("%q split or lost:\n%s", word, out)
		}
	}
	if !strings.Contains(out, "\n    Service Unavailable)") {
		t.Errorf("a sentence's later lines are not indented under it:\n%s", out)
	}
	if strings.Contains(out, "TOOK") || strings.Contains(out, "CLASS") || !strings.Contains(out, "ERROR") || !strings.Contains(out, "Unavailable\n") {
		t.Errorf("the fitted History table:\n%s\nwant TOOK and CLASS left out, each error's end kept", out)
	}

	screenWidth = func(io.Writer) int { return 0 }
	onTerminalForTest(false)
	b.Reset()
	printControllerDiagnosis(&b, d)
	printHistory(&b, hist, 0)
	if !strings.Contains(b.String(), "TOOK") || !strings.Contains(b.String(), "CLASS") || strings.Count(b.String(), outage) != 7 {
		t.Errorf("piped:\n%s\nwant every column, and the error whole on each line", b.String())
	}
}

// TestDescribeNeverBreaksACommand: the command a finding quotes, pasted
// from a terminal, must be one line: broken after "outage-00003", the
// paste runs forget without --requeue. It overflows the width (the
// terminal wraps it softly) rather than break.
func TestDescribeNeverBreaksACommand(t *testing.T) {
	const cmd = "`kubectl backoff forget --addr 127.0.0.1:8082 demo/outage-00003 --controller outage --requeue`"
	d := explain.ControllerDiagnosis{Controller: "outage", Summary: "100 keys backing off",
		Findings: []explain.Finding{{Message: "Once the dependency is back, " + cmd + " retries now instead of after the delay."}}}
	defer screenWidthForTest(80)()
	var b bytes.Buffer
	printControllerDiagnosis(&b, d)
	if !strings.Contains(b.String(), "\n    "+cmd+"\n") {
		t.Errorf("the command is broken, or not on a line of its own:\n%s", b.String())
	}
}
