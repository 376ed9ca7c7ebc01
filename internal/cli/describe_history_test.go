package cli

import (
	"bytes"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
)

// TestHistoryFitsATerminal: describe's History table, on a key read off a
// log without successes (whose triggers are inferred, each a sentence of
// some 70 runes) and forgotten with a long reason, fits 80 columns up to
// its last column, ERROR (which a terminal wraps without moving the
// others), and every inferred trigger's sentence is said, once, under it,
// in 80 columns too.
func TestHistoryFitsATerminal(t *testing.T) {
	at := time.Date(2026, 12, 6, 10, 0, 0, 0, time.UTC)
	d := func(s string) metav1.Duration { v, _ := time.ParseDuration(s); return metav1.Duration{Duration: v} }
	hist := []api.Attempt{
		{At: at, Outcome: api.OutcomeError, Delay: d("16m40s"), Class: api.ClassTransient, Trigger: api.TriggerEvent},
		{At: at.Add(time.Second), Outcome: api.OutcomeError, Delay: d("16m40s"), Class: api.ClassTransient, Trigger: api.TriggerSooner},
		{At: at.Add(2 * time.Second), Outcome: api.OutcomeError, Delay: d("16m40s"), Class: api.ClassTransient, Trigger: api.TriggerSooner},
		{At: at.Add(time.Hour), Outcome: api.OutcomeError, Delay: d("5ms"), Class: api.ClassTransient, Trigger: api.TriggerLate},
		{At: at.Add(2 * time.Hour), Outcome: api.OutcomeError, Delay: d("5ms"), Class: api.ClassTransient, Trigger: api.TriggerNewStreak},
		{At: at.Add(3 * time.Hour), Outcome: api.OutcomeError, Delay: d("16m40s"), Class: api.ClassTransient, Trigger: api.TriggerEvent, Preempted: true},
		{At: at.Add(4 * time.Hour), Outcome: api.OutcomeSuccess, Trigger: api.TriggerForget,
			By: "system:serviceaccount:platform:incident-bot", Reason: "the inventory API is back after the 14:00 outage (INC-2231)"},
	}
	var b bytes.Buffer
	printHistory(&b, hist, 0)
	out := b.String()
	head := strings.Split(out, "\n")[2]
	errorAt := strings.Index(head, "ERROR")
	if errorAt < 0 {
		t.Fatalf("no ERROR column:\n%s", out)
	}
	if errorAt >= 80 {
		t.Errorf("ERROR starts at column %d: the columns before it do not fit 80 columns:\n%s", errorAt, out)
	}
	_, legend, _ := strings.Cut(out, "? inferred")
	for _, l := range strings.Split(legend, "\n") {
		if n := utf8.RuneCountInString(l); n > 80 {
			t.Errorf("%d runes, over 80: %q\n%s", n, l, out)
		}
	}
	flat := strings.Join(strings.Fields(out), " ") // the legend is wrapped
	for _, tr := range []string{api.TriggerSooner, api.TriggerLate, api.TriggerNewStreak} {
		s := explain.TriggerText(api.Attempt{Trigger: tr}, nil)
		if n := strings.Count(flat, s); n != 1 {
			t.Errorf("%q is said %d times, want once (under the table):\n%s", s, n, out)
		}
	}
	if !strings.Contains(out, "event (pre-empted)") {
		t.Errorf("a pre-empting event is not said:\n%s", out)
	}
	if !strings.Contains(out, "forget by system:…") {
		t.Errorf("the forget is not named, cut to fit:\n%s", out)
	}
}
