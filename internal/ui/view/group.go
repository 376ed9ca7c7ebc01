package view

import (
	"charm.land/bubbles/v2/help"
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/widget"
)

// Groups is the incident view: the endpoint's exact error groups
// (v1/errors) — every key with an error counted, by controller and
// fingerprint, largest group first. It reads them when opened and then on
// the top view's cadence, the cursor staying on its group.
type Groups struct {
	Asking
	C *Common

	controller string
	states     []api.State
	// Filter is the top view's filter: the groups count only the keys it
	// selects, and a group's forget acts on those alone.
	Filter  string
	list    *api.ErrorGroupList
	err     error
	Loading bool
	Seq     int
	cursor  int
	offset  int
	// lastSent is when the last read was sent, fetchedAt when the list
	// shown was read (local clock).
	lastSent, fetchedAt time.Time
}

// Open reads the groups of the top view's controller, filter and states
// (failing states when none are selected, a log's unknown keys with them:
// explain.ErrorStates), as in asks.
func (g Groups) Open(in GroupsScope) (Groups, tea.Cmd) {
	states := explain.ErrorStates(g.C.source.fromLogs)
	if len(in.States) > 0 {
		states = in.States
	}
	g = Groups{C: g.C, controller: in.Controller, states: states, Filter: in.Filter}
	return g, g.Refresh()
}

// Refresh reads the groups again.
func (g *Groups) Refresh() tea.Cmd {
	g.Loading = true
	// Numbered across every groups view opened: the stack holds a view
	// only while open, and an answer to one left must not pass for the
	// answer of the next.
	g.C.groupsSeq++
	g.Seq = g.C.groupsSeq
	g.lastSent = g.C.Now()
	return g.C.Stamp(groupsCmd(g.C.Conn.Ctx, g.C.Conn.Session, g.C.Now, g.Seq, g.controller, api.Filter{Q: g.Filter, States: g.states}))
}

// Received takes a read of the groups in. The cursor follows its group
// (controller and fingerprint) to where the new counts put it, so f and r
// act on the group the user chose; a group gone leaves it at the same row.
func (g Groups) Received(msg GroupsFetchedMsg) Groups {
	if msg.Seq != g.Seq {
		return g
	}
	g.Loading = false
	g.err = msg.Err
	if msg.Err == nil {
		if sel := g.selected(); sel != nil && msg.List != nil {
			ctl, fp := sel.Controller, sel.Fingerprint
			if i := slices.IndexFunc(msg.List.Groups, func(gr api.ErrorGroup) bool {
				return gr.Controller == ctl && gr.Fingerprint == fp
			}); i >= 0 {
				g.cursor = i
			}
		}
		g.list, g.fetchedAt = msg.List, msg.FetchedAt
		g.clamp()
	}
	return g
}

func (g *Groups) groups() []api.ErrorGroup {
	if g.list == nil {
		return nil
	}
	return g.list.Groups
}

// groupLines is how many lines the view takes above its rows.
const groupLines = 4

// rows is how many groups fit above the selected group's description.
func (g *Groups) rows() int {
	return max(1, g.C.Height-1-groupLines-5)
}

// clamp keeps the cursor on a group and within the rows on screen.
func (g *Groups) clamp() {
	g.cursor, g.offset = widget.ClampRows(g.cursor, g.offset, len(g.groups()), g.rows())
}

// update handles the group view's keys, and returns what the root must do.
func (g Groups) update(msg tea.KeyPressMsg) (Groups, tea.Cmd, Intent) {
	k := g.C.Keys.group()
	switch {
	case key.Matches(msg, k.Leave, k.Group):
		return g, nil, BackIntent{}
	case key.Matches(msg, k.RefusedForget, k.RefusedRetry):
		return g, nil, g.C.RefusedIntent(key.Matches(msg, k.RefusedForget), key.Matches(msg, k.RefusedRetry), "")
	case key.Matches(msg, k.ShowGroup, k.Forget, k.Retry, k.ForgetAll, k.RetryAll) && g.selected() != nil && g.selected().Fingerprint == fold:
		return g, nil, NoteIntent{Text: "this group gathers the rarest errors of " + text.Printable(g.selected().Controller) + ": no filter selects it; act on its keys from the top view", IsErr: true}
	case key.Matches(msg, k.ShowGroup):
		if gr := g.selected(); gr != nil {
			return g, nil, ShowGroupIntent{Controller: gr.Controller, Errors: FingerprintFilter(gr.Fingerprint), Fingerprint: gr.Fingerprint, States: g.states, From: g}
		}
	case key.Matches(msg, k.Forget, k.Retry, k.ForgetAll, k.RetryAll):
		if gr := g.selected(); gr != nil {
			return g, nil, AskIntent{widget.Action{
				Requeue:     key.Matches(msg, k.Retry, k.RetryAll),
				Controllers: []string{gr.Controller},
				Filter:      &api.Filter{Q: g.Filter, Error: FingerprintFilter(gr.Fingerprint), States: g.states},
				What:        groupWhat(gr, g.Filter),
			}}
		}
	default:
		widget.ScrollBy(k.ScrollKeys, msg, &g.cursor, g.rows(), len(g.groups()))
	}
	g.clamp()
	return g, nil, nil
}

// about is the selected group in full, wrapped: its message, since when,
// and the keys it names.
func (g *Groups) about(now time.Time) []string {
	gr := g.selected()
	if gr == nil {
		return nil
	}
	s := &g.C.Styles
	w := g.C.Width
	out := []string{""}
	for _, l := range text.Wrap(text.Printable(gr.Controller)+": "+text.OneLine(cmp.Or(gr.Message, gr.Fingerprint), 0), w) {
		out = append(out, s.Bold.Render(widget.Fit(l, w)))
	}
	meta := text.Plural(gr.Count, "key")
	if !gr.FirstSeen.IsZero() && !now.IsZero() {
		meta += " · failing for " + text.FormatDuration(now.Sub(gr.FirstSeen))
	}
	if len(gr.Examples) > 0 {
		meta += " · e.g. " + text.Printable(strings.Join(gr.Examples, ", "))
	}
	for _, l := range text.Wrap(meta, w) {
		out = append(out, s.Dim.Render(widget.Fit(l, w)))
	}
	return out[:min(len(out), 5)]
}

// selected is the group under the cursor.
func (g *Groups) selected() *api.ErrorGroup {
	gs := g.groups()
	if g.cursor < 0 || g.cursor >= len(gs) {
		return nil
	}
	return &gs[g.cursor]
}

// freshness says how old the groups shown are, as the top view's header
// does (a snapshot's: when it was taken; a saved log's: when it ends), and
// that they no longer refresh while paused.
func (g *Groups) freshness() string {
	s := &g.C.Styles
	var out string
	switch {
	case g.C.Snapshot():
		out = s.Dim.Render(" · ") + s.Warn.Render("snapshot taken at "+text.Timestamp(g.C.SnapshotAt()))
	case !g.C.LogEnds().IsZero():
		out = s.Dim.Render(" · ") + s.Warn.Render(widget.LogEndsText(g.C.LogEnds(), g.C.Now()))
	case !g.fetchedAt.IsZero():
		out = s.Dim.Render(" · updated " + text.Ago(g.fetchedAt, g.C.Now()))
	}
	if g.C.Paused {
		out += s.Dim.Render(" · ") + s.Warn.Render("⏸ PAUSED")
	}
	return out
}

// view renders the incident view in height-1 lines.
func (g *Groups) view() string {
	s := &g.C.Styles
	w := g.C.Width
	states := make([]string, len(g.states))
	for i, st := range g.states {
		states[i] = string(st)
	}
	scope := ScopeName(g.controller)
	summary := "reading the error groups…"
	if g.err != nil && g.list == nil {
		summary = "could not read the error groups (v1/errors)"
	}
	if g.list != nil {
		keys := text.Plural(g.list.Matched, "key")
		if g.Filter != "" {
			keys += " matching " + widget.DescribeFilter(g.Filter)
		}
		from := "from the endpoint"
		if g.C.source.fromLogs {
			from = "from the log"
		}
		summary = fmt.Sprintf("%s over %s in %s (%s); exact counts, %s",
			text.Plural(len(g.list.Groups), "distinct error"), keys, strings.Join(states, ","), scope, from)
	}
	lines := []string{widget.Fit(s.Title.Render("backoff")+s.Dim.Render(" › ")+s.Bold.Render("keys grouped by error")+g.freshness(), w)}
	// The summary wraps rather than lose its end; its second line takes the
	// blank line's place, so the rows start where they always do.
	sum := text.Wrap(summary, w)
	sum = sum[:min(len(sum), 2)]
	for _, l := range sum {
		lines = append(lines, widget.Fit(l, w))
	}
	if g.err != nil {
		again := "tries again every " + text.FormatDuration(g.C.Opts.Refresh)
		if g.C.Paused {
			again = "ctrl+r tries again"
		}
		for _, l := range text.Wrap("✗ "+widget.ErrText(g.err)+"; "+again+", esc goes back", w) {
			lines = append(lines, s.Bad.Render(widget.Fit(l, w)))
		}
	} else if len(sum) < 2 {
		lines = append(lines, "")
	}
	const classW, seenW = 9, 10 // "transient", "36m7s ago" (the longest Ago)
	// Under 72 columns (as the top table) the error would keep a dozen
	// cells: the counts lose their "keys" (KEYS says it) and CONTROLLER
	// narrows, so that the error keeps its end.
	narrow := w < 72
	ctlW, countW := 12, 11
	if narrow {
		ctlW, countW = 10, 6
	}
	header := fmt.Sprintf("  %*s %-*s %-*s %*s ", countW, "KEYS", ctlW, "CONTROLLER", classW, "CLASS", seenW, "LAST SEEN")
	lines = append(lines, s.Header.Render(widget.Fit(header+errorTitle(w-lipgloss.Width(header)), w)))
	gs := g.groups()
	var now time.Time
	if g.list != nil {
		now = g.C.ServerNow(g.list.ServerTime, g.fetchedAt)
	}
	end := min(len(gs), g.offset+g.rows())
	for i := g.offset; i < end; i++ {
		gr := &gs[i]
		count := text.Thousands(gr.Count) + " keys"
		switch {
		case narrow:
			count = text.Thousands(gr.Count)
		case gr.Count == 1:
			count = text.Thousands(gr.Count) + " key "
		}
		last := "-"
		if !now.IsZero() {
			last = text.Ago(gr.LastSeen, now)
		}
		row := fmt.Sprintf("  %*s %s %s %*s ", countW, count, widget.Fit(text.Cell(gr.Controller, 0), ctlW), widget.Fit(explain.ClassCell(gr.Class), classW), seenW, last)
		// The error keeps its end, where what went wrong is said; its folds
		// are named (ShowFolds): "…" is the cut's alone.
		row += widget.FitMessage(text.OneLine(ShowFolds(gr.Fingerprint, gr.Message), 0), w-lipgloss.Width(row))
		if i == g.cursor {
			lines = append(lines, s.Selected.Render(widget.Fit(widget.SelectedMark(true)+row[2:], w)))
			continue
		}
		lines = append(lines, widget.Fit(row, w))
	}
	if len(gs) == 0 && g.list != nil && g.err == nil {
		lines = append(lines, s.Dim.Render("  no keys with an error"))
	}
	lines = widget.Pad(lines, g.C.bodyHeight())
	if about := g.about(now); len(about) > 0 && len(lines) > len(about)+groupLines+1 {
		// The selected group in full at the bottom: rows hidden by it are
		// still reached with the cursor.
		lines = append(lines[:len(lines)-len(about)], about...)
	}
	return strings.Join(widget.Pad(lines, g.C.Height-1), "\n")
}

// errorTitles title the ERROR column, the longest that fits first: what
// a fold's name in a row stands for (ShowFolds), in full, in short, or
// (help says it) not at all.
var errorTitles = []string{
	"ERROR (<number>, <address>, <id>, <name>: what its keys differ in)",
	"ERROR (<name>, <number>: what differs by key)",
	"ERROR (<name>, <number>: varies)",
	"ERROR",
}

// errorTitle is the longest of errorTitles that fits in room cells.
func errorTitle(room int) string {
	for _, t := range errorTitles {
		if lipgloss.Width(t) <= room {
			return t
		}
	}
	return errorTitles[len(errorTitles)-1]
}

// groupWhat names a group's keys for the forget dialog: within the top
// view's filter, when there is one.
func groupWhat(gr *api.ErrorGroup, filter string) string {
	what := fmt.Sprintf("of %s whose last error is \"%s\"", text.Printable(gr.Controller), text.Printable(ShowFolds(gr.Fingerprint, gr.Message)))
	if filter != "" {
		what += " and matching " + widget.DescribeFilter(filter)
	}
	return what
}

// The view interface (view.go), over the typed methods above.

// The error groups. Its ctrl+r reads the table under it too (readsTable):
// a group's keys are shown there when one is picked.

// OnKey handles a key pressed while the view is on top (View).
func (g Groups) OnKey(msg tea.KeyPressMsg) (View, tea.Cmd, Intent) { return g.update(msg) }

// Render draws the view's body (View).
func (g Groups) Render() string { return g.view() }

// HintKeys is the view's key map: its hints, and what ? explains (View).
func (g Groups) HintKeys() help.KeyMap { return g.C.Keys.group() }

// Receive takes a read of the groups in (Receiver).
func (g Groups) Receive(msg tea.Msg) (View, tea.Cmd, Intent, bool) {
	switch m := msg.(type) {
	case GroupsFetchedMsg:
		return g.Received(m), nil, nil, true
	case DroppedMsg:
		if r, ok := m.Msg.(GroupsFetchedMsg); ok {
			if r.Seq == g.Seq {
				g.Loading = false
			}
			return g, nil, nil, true
		}
	}
	return g, nil, nil, false
}

// Stale reports whether the view's next read is due (View).
func (g Groups) Stale() bool { return g.C.Conn.Session != nil && g.due() }

// Reload reads what the view shows again (View).
func (g Groups) Reload() (View, tea.Cmd) { cmd := g.Refresh(); return g, cmd }

// ReloadNow is ctrl+r's read (View).
func (g Groups) ReloadNow() (View, tea.Cmd) { return g.Reload() }

// Resize lays the view out for the terminal's size (View).
func (g Groups) Resize() (View, tea.Cmd) { g.clamp(); return g, nil }

// ReadsUnder says ctrl+r here reads the table under it too: a group's
// keys are shown there (UnderReader).
func (g Groups) ReadsUnder() bool { return true }

// due reports whether the view's next read is due (Common.Due).
func (g *Groups) due() bool { return g.C.Due(g.Loading, g.lastSent) }
