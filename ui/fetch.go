package ui

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/view"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/widget"
)

// The root's commands: the refresh clock, the status line's expiry, and
// the actions (forget, retry, their dry run). The views' reads are theirs
// (package view: read.go, topread.go). Each calls inspector and returns a
// typed message; none touches the model.

// statusTTL is how long a status message stays.
const statusTTL = 6 * time.Second

// tickMsg is the refresh clock ticking.
type tickMsg struct{}

// dryRunMsg carries how many keys a bulk action would touch, for its confirmation.
type dryRunMsg struct {
	id    int
	count int
	// permanents are how many of them fail on a permanent error.
	permanents int
	// hit are the controllers with keys to touch, and those that failed
	// to answer (they may have some).
	hit []string
	err error
}

// forgetDoneMsg carries the result of a forget or retry.
type forgetDoneMsg struct {
	act   widget.Action
	count int
	// requeued says the endpoint requeued the keys (it can only when it
	// instruments the queue).
	requeued bool
	// forgotIn are the controllers that answered: with err, the others
	// failed (see inspector.ForgetEach).
	forgotIn []string
	// matchedIn are those of them that had keys to forget: what the
	// status counts, as the CLI's "in 1 controller" does.
	matchedIn []string
	err       error
}

// statusExpiredMsg clears the status message it names, if still shown.
type statusExpiredMsg struct{ id int }

// tick schedules the next refresh tick.
func tick(d time.Duration) tea.Cmd {
	return tea.Tick(d, func(time.Time) tea.Msg { return tickMsg{} })
}

// expireStatus clears status id after statusTTL.
func expireStatus(id int) tea.Cmd {
	return tea.Tick(statusTTL, func(time.Time) tea.Msg { return statusExpiredMsg{id} })
}

// dryRunCmd asks the endpoint how many keys act would touch.
func dryRunCmd(ctx context.Context, s *inspector.Session, id int, act widget.Action) tea.Cmd {
	return func() tea.Msg {
		resps, err := runAction(ctx, s, act, true)
		msg := dryRunMsg{id: id, err: err}
		answered := map[string]bool{}
		for _, r := range resps {
			msg.count += r.Count
			msg.permanents += r.Permanent
			answered[r.Controller] = true
			if r.Count > 0 {
				msg.hit = append(msg.hit, r.Controller)
			}
		}
		for _, r := range act.Requests() {
			if !answered[r.Controller] {
				msg.hit = append(msg.hit, r.Controller)
			}
		}
		return msg
	}
}

// forgetCmd runs act.
func forgetCmd(ctx context.Context, s *inspector.Session, act widget.Action) tea.Cmd {
	return func() tea.Msg {
		resps, err := runAction(ctx, s, act, false)
		msg := forgetDoneMsg{act: act, err: err}
		for _, r := range resps {
			msg.count += r.Count
			msg.requeued = msg.requeued || r.Requeued
			msg.forgotIn = append(msg.forgotIn, r.Controller)
			if r.Count > 0 {
				msg.matchedIn = append(msg.matchedIn, r.Controller)
			}
		}
		return msg
	}
}

// runAction sends act's forget requests, one per controller, through
// inspector.ForgetEach (every controller is asked whatever another
// answers): resps are the answers of the controllers that answered, err
// an inspector.ForgetFailures naming each that did not.
func runAction(ctx context.Context, s *inspector.Session, act widget.Action, dryRun bool) (resps []*api.ForgetResponse, err error) {
	ctx, cancel := context.WithTimeout(ctx, view.CallTimeout)
	defer cancel()
	reqs := act.Requests()
	for i := range reqs {
		reqs[i].DryRun = dryRun
	}
	return s.ForgetEach(ctx, reqs)
}
