package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/view"
)

// On screen, as the newcomer read naive-00001 after a forget: the labels
// count their rows, and with the note above the table they add up to the
// prose's "the same on the last 29 attempts".
func TestTimelineAfterForgetAddsUp(t *testing.T) {
	m := loaded(t, 80, 60)
	d := fixedDetail()
	k := &d.Key.Key
	msg := k.LastError.Message
	var hist []api.Attempt
	at := t0.Add(-10 * time.Minute)
	for i := range 16 {
		a := api.Attempt{At: at.Add(time.Duration(i) * time.Second), Outcome: api.OutcomeError, Trigger: api.TriggerRetry, Error: msg, Delay: dur(time.Second)}
		if i == 2 {
			a = api.Attempt{At: a.At, Outcome: api.OutcomeForgotten, Trigger: api.TriggerForget}
		}
		hist = append(hist, a)
	}
	k.History, k.Failures, k.SameErrorCount = hist, 13, 29
	m.pushView(modeDetail, view.Detail{C: m.c, Controller: "naive", Key: "demo/naive-00001"})
	m = send(t, m, view.DetailFetchedMsg{Controller: "naive", Key: "demo/naive-00001", Data: d, FetchedAt: t0})
	s := screen(m)
	for _, want := range []string{"the same on the last 29 attempts", "Attempts (last 16, oldest first) · 14 earlier, same error", "×2 spec.storageClass", "×13 spec.storageClass"} {
		if !strings.Contains(squashSpaces(s), want) {
			t.Errorf("the detail view does not show %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "×29") || strings.Contains(s, "×15") {
		t.Errorf("a label counts rows it does not span:\n%s", s)
	}
}

// squashSpaces is s with each run of spaces and line breaks made one space.
func squashSpaces(s string) string { return strings.Join(strings.Fields(s), " ") }
