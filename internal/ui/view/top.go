package view

import (
	"charm.land/bubbles/v2/help"
	"fmt"
	"slices"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/widget"
)

// sortWords names an order in the status line of a fallback.
var sortWords = map[string]string{api.SortAttention: "attention", api.SortNext: "next retry"}

// Top is the live table of keys: the view over its read model (TopModel:
// the query, the last answer, the pacing of its reads, the rows changed),
// with what is the view's own — the filter line, the cursor, a drill-down
// — and its renderers beside it, each a type of its own handed what it
// draws (toprender.go: TopHeader, TopTable, TopLegend). The cursor follows
// a key, not a row: across refreshes and re-sorts it stays on the key the
// user chose.
type Top struct {
	TopModel
	Asking

	// Filter is the filter line: what it applies is the query's q.
	Filter widget.Filter

	// The selection: the row the cursor is on, and the key it follows ("" to
	// take whatever key lands under the cursor, after a scroll).
	Cursor int
	Sel    string
	// chosen is true once the user moved the cursor: until then it stays
	// on the first row, the worst key under the attention order.
	chosen bool

	// Drill is the view before a drill-down into an error group, which esc
	// restores; nil when the view is not a drill-down.
	Drill *topView
	// Group is the error group a drill-down shows, beside the filter.
	Group ErrorGroup
}

// NewTop is the table, with the initial selection of the options (--controller, --state, -q).
func NewTop(c *Common) Top {
	t := Top{TopModel: TopModel{C: c, states: map[api.State]bool{}, Controller: c.Opts.Controller}, Filter: widget.NewFilter(c.Keys.FilterKeys(), c.Opts.Filter)}
	for _, s := range c.Opts.States {
		t.states[s] = true
	}
	return t
}

// Query is the page the table shows.
func (t *Top) Query() inspector.KeyQuery {
	return inspector.KeyQuery{
		Controller: t.Controller, Q: t.Filter.Applied, Error: t.Group.Pattern, States: t.StateList(),
		Sort: Sorts[t.Sort], Limit: min(t.Rows(), maxPage), Offset: t.Offset,
	}
}

// Selected is the key under the cursor.
func (t *Top) Selected() *inspector.PodKey {
	if t.Page == nil || t.Cursor < 0 || t.Cursor >= len(t.Page.Items) {
		return nil
	}
	return &t.Page.Items[t.Cursor]
}

// setSize refetches when the number of rows changed.
func (t Top) setSize() (Top, tea.Cmd) {
	t.Filter.SetWidth(t.C.Width)
	return t, t.Refit()
}

// Received takes a refresh in: the read model takes the answer (take),
// the cursor finds its key again (or its nearest neighbour, with a note
// saying so), and an endpoint older than the sort order asked sorts by the
// one before it.
func (t Top) Received(msg RefreshedMsg) (Top, tea.Cmd, string) {
	if !t.accept(msg) {
		return t, nil, "" // a newer query is under way
	}
	cur := Sorts[t.Sort]
	if next, ok := inspector.OlderSort(cur); ok && inspector.SortRefused(msg.PageErr, cur, msg.Overview, t.Overview) {
		// An endpoint older than the order: sort by the one before it.
		t.Sort = slices.Index(Sorts, next)
		return t, t.Refresh(), fmt.Sprintf("this endpoint does not sort by %s: sorted by %s", cur, sortWords[next])
	}
	old, paged := t.take(msg, t.Query())
	if !paged {
		return t, nil, ""
	}
	return t, nil, t.follow(old)
}

// Refresh starts a read of what the table shows: its query, at the rows
// that fit.
func (t *Top) Refresh() tea.Cmd { return t.read(t.Query()) }

// update handles the top view's keys (the drill-down's esc included), and
// returns what the root must do.
func (t Top) update(msg tea.KeyPressMsg) (Top, tea.Cmd, Intent) {
	k := t.Keys()
	before := queryID(t.Query())
	rows := t.Rows()
	var in Intent
	switch {
	case key.Matches(msg, k.Up):
		t.moveTo(t.Cursor - 1)
		t.chosen = true
	case key.Matches(msg, k.Down):
		t.moveTo(t.Cursor + 1)
		t.chosen = true
	case key.Matches(msg, k.PageUp):
		t.Offset, t.Sel, t.chosen = max(0, t.Offset-rows), "", true
	case key.Matches(msg, k.PageDown):
		t.Offset, t.Sel, t.chosen = max(0, min(t.Offset+rows, t.matched()-rows)), "", true
	case key.Matches(msg, k.Home):
		t.Offset, t.Cursor, t.Sel, t.chosen = 0, 0, "", false
	case key.Matches(msg, k.End):
		t.Offset, t.Cursor, t.Sel, t.chosen = max(0, t.matched()-rows), rows-1, "", true
	case key.Matches(msg, k.Filter):
		var cmd tea.Cmd
		t.Filter, cmd = t.Filter.Start()
		return t, cmd, TypingIntent(true)
	case key.Matches(msg, k.Back) && t.Drill != nil:
		in = t.undoDrill()
	case key.Matches(msg, k.Back) && t.Filter.State == widget.FilterApplied:
		t.Filter.Clear()
		t.Offset, t.Cursor, t.Sel, t.chosen = 0, 0, "", false
	case key.Matches(msg, k.States):
		in = t.toggleState(int(msg.Text[0] - '1'))
	case key.Matches(msg, k.Sort):
		// The key followed stays selected if it is on the first page.
		t.Sort = (t.Sort + 1) % len(Sorts)
		t.Offset = 0
		in = NoteIntent{Text: "sorted by " + SortHelp[Sorts[t.Sort]]}
	case key.Matches(msg, k.Controller) && t.Drill != nil:
		in = t.switchFromDrill(key.Matches(msg, k.PrevController))
	case key.Matches(msg, k.Controller):
		t.Controller = t.nextController(key.Matches(msg, k.PrevController))
		t.Offset, t.Cursor, t.Sel, t.chosen = 0, 0, "", false
	case key.Matches(msg, k.Open):
		if sel := t.Selected(); sel != nil {
			return t, nil, OpenKey(t.C, sel.Controller, sel.Key.Key)
		}
	case key.Matches(msg, k.Group):
		g, cmd := Groups{C: t.C}.Open(GroupsScope{Controller: t.Controller, Filter: t.Filter.Applied, States: t.StateList()})
		return t, nil, OpenIntent{View: g, Cmd: cmd}
	case key.Matches(msg, k.RefusedForget, k.RefusedRetry):
		name := ""
		if sel := t.Selected(); sel != nil {
			name = sel.Key.Key
		}
		return t, nil, t.C.RefusedIntent(key.Matches(msg, k.RefusedForget), key.Matches(msg, k.RefusedRetry), name)
	case key.Matches(msg, k.Forget, k.Retry):
		return t, nil, t.keyAction(key.Matches(msg, k.Retry))
	case key.Matches(msg, k.ForgetAll, k.RetryAll):
		return t, nil, AskIntent{Act: t.filteredSet(key.Matches(msg, k.RetryAll))}
	}
	if queryID(t.Query()) != before {
		return t, t.Refresh(), in
	}
	return t, nil, in
}

// The view interface (view.go), over the typed methods above.

// The table: the view the UI opens on, and the drill-down's.

// OnKey handles a key pressed while the view is on top (View).
func (t Top) OnKey(msg tea.KeyPressMsg) (View, tea.Cmd, Intent) { return t.update(msg) }

// Render draws the view's body (View).
func (t Top) Render() string { return t.view() }

// HintKeys is the view's key map: its hints, and what ? explains (View).
func (t Top) HintKeys() help.KeyMap { return t.Keys() }

// Receive takes a refresh in (Receiver): the table's note, or the legend
// of its marks when the footer is free, for the footer; the end of the UI
// when the endpoint was never reached (GaveUp).
func (t Top) Receive(msg tea.Msg) (View, tea.Cmd, Intent, bool) {
	switch m := msg.(type) {
	case RefreshedMsg:
		next, cmd, note := t.Received(m)
		if err := next.GaveUp(m); err != nil {
			return next, cmd, QuitIntent{Err: err}, true
		}
		return next, cmd, FooterIntent{Note: note, Legend: next.Legend().Say}, true
	case DroppedMsg:
		if r, ok := m.Msg.(RefreshedMsg); ok {
			// The diagnosis' groups are asked for again on the next read,
			// as they would have been had this one been taken in.
			if r.GroupsAsked {
				t.GroupsAt = time.Time{}
			}
			if r.Seq == t.Seq {
				t.Inflight = false
			}
			return t, nil, nil, true
		}
	}
	return t, nil, nil, false
}

// HelpLead is the diagnosis, whole, when the header cut it (HelpLead).
func (t Top) HelpLead() string { return t.Header().DiagnosisWhole() }

// Stale reports whether the view's next read is due (View).
func (t Top) Stale() bool { return t.C.Conn.Session != nil && t.due() }

// Reload reads what the view shows again (View).
func (t Top) Reload() (View, tea.Cmd) { cmd := t.Refresh(); return t, cmd }

// ReloadNow is ctrl+r's read (View).
func (t Top) ReloadNow() (View, tea.Cmd) { return t.Reload() }

// Resize lays the view out for the terminal's size (View).
func (t Top) Resize() (View, tea.Cmd) { return t.setSize() }

// OnFilterKey handles a key while the view's filter line is typed (FilterView).
func (t Top) OnFilterKey(msg tea.KeyPressMsg) (View, tea.Cmd, Intent) {
	return t.filterKey(msg)
}

// OnFilterInput passes a message that is not a key to the filter line being typed (FilterView).
func (t Top) OnFilterInput(msg tea.Msg) (View, tea.Cmd) { return t.filterInput(msg) }
