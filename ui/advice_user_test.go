package ui

import (
	"strings"
	"testing"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/view"
)

// TestDetailAdviceIsTheUsers: the key view's reader runs the controller, at
// an incident (issue #47: "return a TerminalError" is aimed at its
// authors): a permanent error's advice says what to do now, and no advice
// to the controller's authors; describe's diagnosis (the same finding's
// Message) keeps the authors' hint.
func TestDetailAdviceIsTheUsers(t *testing.T) {
	d := fixedDetail()
	d.Key.LastError.Class = api.ClassPermanent
	m := send(t, detailOf(t, loaded(t, 120, 30)), view.DetailFetchedMsg{Controller: "naive", Key: "demo/naive-00001", Data: d, FetchedAt: t0})
	s := strings.Join(strings.Fields(screen(m)), " ")
	if !strings.Contains(s, "The error is permanent") || !strings.Contains(s, "Fix what the error names: the object, or what it depends on") {
		t.Errorf("the key view does not say what to do about the permanent error:\n%s", screen(m))
	}
	if strings.Contains(s, "TerminalError") || strings.Contains(s, "status condition") {
		t.Errorf("the key view gives the controller's authors' advice to its user:\n%s", screen(m))
	}
	dg := explain.Explain(explain.Input{Key: d.Key.Key, Controller: d.Controller, Now: t0})
	seen := false
	for _, f := range dg.Findings {
		if f.Code == explain.FindingPermanent {
			seen = true
			if !strings.Contains(f.Message, "return a TerminalError") {
				t.Errorf("describe's finding lost the authors' hint: %q", f.Message)
			}
		}
	}
	if !seen {
		t.Errorf("no permanent finding in %+v", dg.Findings)
	}
}
