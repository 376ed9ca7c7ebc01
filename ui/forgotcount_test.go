package ui

import (
	"strings"
	"testing"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/widget"
)

// TestForgetAllCountsTheControllersWithKeys: R over a filter that only one
// controller's keys pass (typed "naive", across six) says that controller,
// as the CLI's dry run does ("in 1 controller"), not the six asked.
func TestForgetAllCountsTheControllersWithKeys(t *testing.T) {
	six := []string{"bucket", "conflicts", "naive", "outage", "slow", "wellbehaved"}
	act := widget.Action{Controllers: six, Filter: &api.Filter{Q: "naive"}}
	got := forgotText(forgetDoneMsg{act: act, count: 20, forgotIn: six, matchedIn: []string{"naive"}})
	if !strings.HasPrefix(got, "forgot the backoff of 20 keys of naive") {
		t.Errorf("R over naive's 20 keys: %q; want them counted in naive alone", got)
	}
	got = forgotText(forgetDoneMsg{act: act, count: 3, forgotIn: six, matchedIn: []string{"naive", "slow"}})
	if !strings.HasPrefix(got, "forgot the backoff of 3 keys of 2 controllers") {
		t.Errorf("keys of two controllers: %q", got)
	}
}
