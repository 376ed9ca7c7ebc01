package ui

import (
	"cmp"
	"context"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/view"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/widget"
)

// This file holds every command: the only place the UI does I/O. Each one
// calls inspector and returns a typed message; none touches the model.

const (
	// maxPage bounds the keys one top-view refresh reads: at about 550 bytes
	// a key that keeps a refresh under 64 KiB whatever the key count. The
	// retry forecast comes counted from v1/controllers, so it costs no keys.
	maxPage = 96
	// diagnosisEvery spaces the reads of the error groups behind the
	// diagnosis line (see topModel.refresh).
	diagnosisEvery = 5 * time.Second
	// statusTTL is how long a status message stays.
	statusTTL = 6 * time.Second
)

// tickMsg is the refresh clock ticking.
type tickMsg struct{}

// refreshedMsg carries one refresh of the top view: the overview (with the
// retry forecast) and the visible page.
type refreshedMsg struct {
	seq      int
	overview *inspector.Overview
	page     *inspector.KeyList
	// groups are the retrying keys' error groups, for the header's
	// diagnosis, of groupsFor's keys; nil when not asked for, from an
	// endpoint without v1/errors, or on its error.
	groups      *api.ErrorGroupList
	groupsAsked bool
	groupsFor   string
	err         error
	// pageErr is the page's own error: the one `get` would print.
	pageErr   error
	fetchedAt time.Time
}

// dryRunMsg carries how many keys a bulk action would touch, for its confirmation.
type dryRunMsg struct {
	id    int
	count int
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

// refreshCmd reads what the top view shows: one v1/controllers call per
// endpoint (counts, limiters, the retry forecast), the visible page and,
// with groups, the error groups of the retrying keys the diagnosis names
// (v1/errors, counted on the server: its answer is a few groups, whatever
// the keys).
func refreshCmd(ctx context.Context, s *inspector.Session, clock func() time.Time, seq int, page inspector.KeyQuery, groups bool) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(ctx, view.CallTimeout)
		defer cancel()
		msg := refreshedMsg{seq: seq, groupsAsked: groups, groupsFor: page.Controller}
		var ovErr, pageErr error
		var wg sync.WaitGroup
		wg.Go(func() { msg.overview, ovErr = s.Overview(ctx) })
		wg.Go(func() { msg.page, pageErr = s.Keys(ctx, page) })
		// Without its groups the diagnosis still speaks, from the counts.
		if groups {
			wg.Go(func() { msg.groups, _ = s.Errors(ctx, page.Controller, api.Filter{States: explain.DiagnosisStates}) })
		}
		wg.Wait()
		msg.fetchedAt = clock()
		msg.err, msg.pageErr = cmp.Or(ovErr, pageErr), pageErr
		return msg
	}
}

// dryRunCmd asks the endpoint how many keys act would touch.
func dryRunCmd(ctx context.Context, s *inspector.Session, id int, act widget.Action) tea.Cmd {
	return func() tea.Msg {
		resps, err := runAction(ctx, s, act, true)
		msg := dryRunMsg{id: id, err: err}
		answered := map[string]bool{}
		for _, r := range resps {
			msg.count += r.Count
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
