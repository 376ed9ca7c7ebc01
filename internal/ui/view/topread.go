package view

import (
	"cmp"
	"context"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
)

// The table's read: its overview, its page and the diagnosis' groups.

const (
	// maxPage bounds the keys one top-view refresh reads: at about 550 bytes
	// a key that keeps a refresh under 64 KiB whatever the key count. The
	// retry forecast comes counted from v1/controllers, so it costs no keys.
	maxPage = 96
	// DiagnosisEvery spaces the reads of the error groups behind the
	// diagnosis line (see Top.Refresh).
	DiagnosisEvery = 5 * time.Second
)

// RefreshedMsg carries one refresh of the top view: the overview (with the
// retry forecast) and the visible page.
type RefreshedMsg struct {
	Seq      int
	Overview *inspector.Overview
	Page     *inspector.KeyList
	// Groups are the retrying keys' error groups, for the header's
	// diagnosis, of groupsFor's keys; nil when not asked for, from an
	// endpoint without v1/errors, or on its error.
	Groups      *api.ErrorGroupList
	GroupsAsked bool
	GroupsFor   string
	Err         error
	// PageErr is the page's own error: the one `get` would print.
	PageErr   error
	FetchedAt time.Time
}

// refreshCmd reads what the top view shows: one v1/controllers call per
// endpoint (counts, limiters, the retry forecast), the visible page and,
// with groups, the error groups of the retrying keys the diagnosis names
// (v1/errors, counted on the server: its answer is a few groups, whatever
// the keys).
func refreshCmd(ctx context.Context, s *inspector.Session, clock func() time.Time, seq int, page inspector.KeyQuery, groups bool) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(ctx, CallTimeout)
		defer cancel()
		msg := RefreshedMsg{Seq: seq, GroupsAsked: groups, GroupsFor: page.Controller}
		var ovErr, pageErr error
		var wg sync.WaitGroup
		wg.Go(func() { msg.Overview, ovErr = s.Overview(ctx) })
		wg.Go(func() { msg.Page, pageErr = s.Keys(ctx, page) })
		// Without its groups the diagnosis still speaks, from the counts.
		if groups {
			wg.Go(func() { msg.Groups, _ = s.Errors(ctx, page.Controller, api.Filter{States: explain.DiagnosisStates}) })
		}
		wg.Wait()
		msg.FetchedAt = clock()
		msg.Err, msg.PageErr = cmp.Or(ovErr, pageErr), pageErr
		return msg
	}
}
