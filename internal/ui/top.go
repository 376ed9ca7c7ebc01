package ui

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
	"github.com/kubectl-backoff/kubectl-backoff/internal/query"
)

// sorts are the orders s cycles through, the default first: keys still
// retrying first, then trouble of any kind, then the endpoint's others.
var sorts = append([]string{api.SortRetrying, api.SortAttention}, slices.DeleteFunc(slices.Clone(api.Sorts), func(s string) bool {
	return s == api.SortRetrying || s == api.SortAttention
})...)

// sortFallback is the order to use against an endpoint that refuses one:
// retrying came after attention, which came after next (every server's).
var sortFallback = map[string]string{api.SortRetrying: api.SortAttention, api.SortAttention: api.SortNext}

// sortWords names an order in the status line of a fallback.
var sortWords = map[string]string{api.SortAttention: "attention", api.SortNext: "next retry"}

// headerLines is how many lines the header above the table takes, but for
// a fleet's rows (headerHeight).
const headerLines = 6

// topModel is the live table of keys: what it asks the endpoint for, and
// the last answer. The cursor follows a key, not a row: across refreshes
// and re-sorts it stays on the key the user chose.
type topModel struct {
	c *common

	// The query.
	controller string
	states     map[api.State]bool
	sort       int
	filter     filterModel
	offset     int

	// The selection: the row the cursor is on, and the key it follows ("" to
	// take whatever key lands under the cursor, after a scroll).
	cursor int
	sel    string
	// chosen is true once the user moved the cursor: until then it stays
	// on the first row, the worst key under the attention order.
	chosen bool

	// The last answer.
	overview  *inspector.Overview
	page      *inspector.KeyList
	groups    []api.ErrorGroup // the last error groups read, for the diagnosis
	fetchedAt time.Time
	err       error
	// reached is true once the endpoint answered at all; failedSince is when
	// the current run of failed refreshes began.
	reached     bool
	failedSince time.Time

	// Rows changed since the previous refresh of the same query.
	prevQuery string
	prev      map[string]string
	changed   map[string]bool

	seq      int
	inflight bool
	lastSent time.Time
	// quietSince is when the first read the endpoint has not answered
	// since its last answer was sent: where "not answering since" starts,
	// through the reads that time out after it.
	quietSince time.Time
	// groupsAt and groupsFor say when, and for which controller filter, the
	// error groups behind the diagnosis were last asked for (see refresh).
	groupsAt  time.Time
	groupsFor string
	// groupsFailing says whether some key failed in the overview read with
	// the last groups.
	groupsFailing bool
	// asked is the page size of the last read sent (see refit), refitSeq
	// the seq of refit's last read.
	asked, refitSeq int

	// drill is the view before a drill-down into an error group, which esc
	// restores; nil when the view is not a drill-down.
	drill *topView
	// group is the error group a drill-down shows, beside the filter.
	group errorGroup
}

func newTopModel(c *common) topModel {
	t := topModel{c: c, filter: newFilter(&c.keys, c.opts.Filter), states: map[api.State]bool{}, controller: c.opts.Controller}
	for _, s := range c.opts.States {
		t.states[s] = true
	}
	return t
}

// query is the page the table shows.
func (t *topModel) query() inspector.KeyQuery {
	return inspector.KeyQuery{
		Controller: t.controller, Q: t.filter.applied, Error: t.group.pattern, States: t.stateList(),
		Sort: sorts[t.sort], Limit: min(t.rows(), maxPage), Offset: t.offset,
	}
}

// stateList is the states toggled on, in the toggles' order: of every
// state a source may have, so that --state unknown selects before the first
// v1/controllers says the source is a log (an endpoint refuses it).
func (t *topModel) stateList() []api.State {
	var out []api.State
	for _, s := range query.LogStates {
		if t.states[s] {
			out = append(out, s)
		}
	}
	return out
}

func queryID(q inspector.KeyQuery) string {
	return fmt.Sprintf("%s|%s|%s|%v|%s|%d|%d", q.Controller, q.Q, q.Error, q.States, q.Sort, q.Limit, q.Offset)
}

// refresh starts a fetch of what the top view shows.
func (t *topModel) refresh() tea.Cmd {
	t.seq++
	t.inflight = true
	t.lastSent = t.c.now()
	if t.quietSince.IsZero() {
		t.quietSince = t.lastSent
	}
	t.asked = t.query().Limit
	// The diagnosis line changes slowly and its error groups cost the
	// endpoint a pass over every key: ask for them every diagnosisEvery, not
	// on every refresh, so that each viewer costs the controller one cheap
	// page a second.
	// Keys starting or stopping to fail change the diagnosis at once: then
	// the groups are read on this refresh.
	groups := t.groupsAt.IsZero() || t.groupsFor != t.controller || failing(t.overview) != t.groupsFailing ||
		t.lastSent.Sub(t.groupsAt) >= diagnosisEvery
	if groups {
		t.groupsAt, t.groupsFor = t.lastSent, t.controller
	}
	return t.c.stamp(refreshCmd(t.c.conn.ctx, t.c.conn.session, t.c.opts.Clock, t.seq, t.query(), groups))
}

// failing reports whether some key of ov is in backoff or failed.
func failing(ov *inspector.Overview) bool {
	if ov == nil {
		return false
	}
	for i := range ov.Controllers {
		if explain.InTrouble(&ov.Controllers[i]) > 0 {
			return true
		}
	}
	return false
}

// selected is the key under the cursor.
func (t *topModel) selected() *inspector.PodKey {
	if t.page == nil || t.cursor < 0 || t.cursor >= len(t.page.Items) {
		return nil
	}
	return &t.page.Items[t.cursor]
}

// matched is how many keys the query matches, as last reported.
func (t *topModel) matched() int {
	if t.page == nil {
		return 0
	}
	return t.page.Matched
}

// setSize refetches when the number of rows changed.
func (t topModel) setSize() (topModel, tea.Cmd) {
	t.filter.setWidth(t.c.width)
	return t, t.refit()
}

// received takes a refresh in: the cursor finds its key again (or its
// nearest neighbour, with a note saying so), and the rows that changed
// since the previous refresh of the same query are marked.
func (t topModel) received(msg refreshedMsg) (topModel, tea.Cmd, string) {
	if msg.groupsAsked && msg.groupsFor == t.controller {
		// Still right for the diagnosis when a newer page query is under way.
		// Noted here too, not only when asked: the first refresh is sent
		// from Init, whose model is not kept.
		t.groupsAt, t.groupsFor = msg.fetchedAt, msg.groupsFor
		if msg.groups != nil {
			t.groups = msg.groups.Groups
			t.groupsFailing = failing(msg.overview)
		}
	}
	if msg.seq != t.seq {
		return t, nil, "" // a newer query is under way
	}
	t.inflight = false
	if cur := sorts[t.sort]; sortFallback[cur] != "" && sortRefused(msg.pageErr, cur, msg.overview, t.overview) {
		// An endpoint older than the order: sort by the one before it.
		next := sortFallback[cur]
		t.sort = slices.Index(sorts, next)
		return t, t.refresh(), fmt.Sprintf("this endpoint does not sort by %s: sorted by %s", cur, sortWords[next])
	}
	t.err = msg.err
	if msg.err == nil {
		t.reached, t.failedSince, t.quietSince = true, time.Time{}, time.Time{}
	} else if t.failedSince.IsZero() {
		t.failedSince = msg.fetchedAt
	}
	switch {
	case msg.overview != nil && msg.err == nil:
		t.overview = msg.overview
		t.c.setCapabilities(msg.overview)
	case msg.overview != nil && t.overview != nil:
		// Keep the last counts on screen; show how the replicas stand now.
		ov := *t.overview
		ov.Replicas = msg.overview.Replicas
		t.overview = &ov
	case msg.overview != nil:
		t.overview = msg.overview
	}
	if msg.page == nil {
		return t, nil, ""
	}
	old := t.page
	t.page, t.fetchedAt = msg.page, msg.fetchedAt
	// The same query at another page size shows the same rows: a page
	// read again to fit (refit) compares with the one before, and keeps
	// its marks, which say what the last refresh changed.
	q := t.query()
	q.Limit = 0
	id := queryID(q)
	sigs := make(map[string]string, len(msg.page.Items))
	marked := t.changed
	t.changed = map[string]bool{}
	for _, k := range msg.page.Items {
		rid := rowID(&k)
		sigs[rid] = signature(&k.Key)
		if t.prev != nil && t.prevQuery == id && sigs[rid] != t.prev[rid] || msg.seq == t.refitSeq && marked[rid] {
			t.changed[rid] = true
		}
	}
	t.prev, t.prevQuery = sigs, id
	return t, nil, t.follow(old)
}

// signature is what makes a row "changed" when it differs between refreshes.
func signature(k *api.Key) string {
	var lastErr time.Time
	if k.LastError != nil {
		lastErr = k.LastError.At
	}
	return fmt.Sprintf("%s|%d|%d|%d|%d", k.State, k.Failures, k.Reconciles, k.NextRetryAt.UnixNano(), lastErr.UnixNano())
}

// update handles the top view's keys (the drill-down's esc included), and
// returns what the root must do.
func (t topModel) update(msg tea.KeyPressMsg) (topModel, tea.Cmd, intent) {
	k := t.keys()
	before := queryID(t.query())
	rows := t.rows()
	var in intent
	switch {
	case key.Matches(msg, k.Up):
		t.moveTo(t.cursor - 1)
		t.chosen = true
	case key.Matches(msg, k.Down):
		t.moveTo(t.cursor + 1)
		t.chosen = true
	case key.Matches(msg, k.PageUp):
		t.offset, t.sel, t.chosen = max(0, t.offset-rows), "", true
	case key.Matches(msg, k.PageDown):
		t.offset, t.sel, t.chosen = max(0, min(t.offset+rows, t.matched()-rows)), "", true
	case key.Matches(msg, k.Home):
		t.offset, t.cursor, t.sel, t.chosen = 0, 0, "", false
	case key.Matches(msg, k.End):
		t.offset, t.cursor, t.sel, t.chosen = max(0, t.matched()-rows), rows-1, "", true
	case key.Matches(msg, k.Filter):
		var cmd tea.Cmd
		t.filter, cmd = t.filter.start()
		return t, cmd, typingIntent(true)
	case key.Matches(msg, k.Back) && t.drill != nil:
		in = t.undoDrill()
	case key.Matches(msg, k.Back) && t.filter.state == filterApplied:
		t.filter.clear()
		t.offset, t.cursor, t.sel, t.chosen = 0, 0, "", false
	case key.Matches(msg, k.States):
		in = t.toggleState(int(msg.Text[0] - '1'))
	case key.Matches(msg, k.Sort):
		// The key followed stays selected if it is on the first page.
		t.sort = (t.sort + 1) % len(sorts)
		t.offset = 0
		in = noteIntent{text: "sorted by " + sortHelp[sorts[t.sort]]}
	case key.Matches(msg, k.Controller) && t.drill != nil:
		in = t.switchFromDrill(key.Matches(msg, k.PrevController))
	case key.Matches(msg, k.Controller):
		t.controller = t.nextController(key.Matches(msg, k.PrevController))
		t.offset, t.cursor, t.sel, t.chosen = 0, 0, "", false
	case key.Matches(msg, k.Open):
		if sel := t.selected(); sel != nil {
			return t, nil, openKeyIntent{sel.Controller, sel.Key.Key}
		}
	case key.Matches(msg, k.Group):
		return t, nil, openGroupsIntent{controller: t.controller, filter: t.filter.applied, states: t.stateList()}
	case key.Matches(msg, k.RefusedForget, k.RefusedRetry):
		name := ""
		if sel := t.selected(); sel != nil {
			name = sel.Key.Key
		}
		return t, nil, t.c.refusedIntent(key.Matches(msg, k.RefusedForget), key.Matches(msg, k.RefusedRetry), name)
	case key.Matches(msg, k.Forget, k.Retry):
		return t, nil, t.keyAction(key.Matches(msg, k.Retry))
	case key.Matches(msg, k.ForgetAll, k.RetryAll):
		return t, nil, askIntent{t.filteredSet(key.Matches(msg, k.RetryAll))}
	}
	if queryID(t.query()) != before {
		return t, t.refresh(), in
	}
	return t, nil, in
}

// filterKey handles a key while the filter line is typed: the filter is
// applied as it is typed; enter or esc ends the typing.
func (t topModel) filterKey(msg tea.KeyPressMsg) (topModel, tea.Cmd, intent) {
	f, cmd, changed, done := t.filter.update(msg)
	t.filter = f
	var in intent
	if done {
		in = typingIntent(false)
	}
	if changed {
		t.offset, t.cursor, t.sel, t.chosen = 0, 0, "", false
		return t, tea.Batch(cmd, t.refresh()), in
	}
	return t, cmd, in
}

// filterInput passes a message that is not a key (the cursor's blink) to
// the filter line being typed.
func (t topModel) filterInput(msg tea.Msg) (topModel, tea.Cmd) {
	var cmd tea.Cmd
	t.filter.input, cmd = t.filter.input.Update(msg)
	return t, cmd
}

// sortHelp says what each order puts first.
var sortHelp = map[string]string{
	api.SortRetrying:  "retrying: keys still retrying first, longest failing on top; terminal failures below them",
	api.SortAttention: "attention: failing and failed keys first, longest failing on top",
	api.SortNext:      "next: the soonest retry first",
	api.SortFailures:  "failures: most consecutive failures first",
	api.SortKey:       "key: by controller, then key",
	api.SortSince:     "since: the longest failure streak first",
}

// toggleState shows or hides state i, and says what the table shows now and
// what pressing the key again does.
func (t *topModel) toggleState(i int) intent {
	toggles := t.c.toggleStates()
	if i < 0 || i >= len(toggles) {
		return nil
	}
	st := toggles[i]
	t.states[st] = !t.states[st]
	t.offset, t.cursor, t.sel, t.chosen = 0, 0, "", false
	sel := t.stateList()
	if len(sel) == 0 {
		return noteIntent{text: fmt.Sprintf("showing every state again (%d shows only %s)", i+1, st)}
	}
	names := make([]string, len(sel))
	for j, s := range sel {
		names[j] = string(s)
	}
	again := fmt.Sprintf("%d again hides it", i+1)
	switch {
	case !t.states[st]:
		again = fmt.Sprintf("%d again adds it back", i+1)
	case len(sel) == 1:
		// The only state on: off again is none on, which shows them all.
		again = fmt.Sprintf("%d again shows every state", i+1)
	}
	return noteIntent{text: fmt.Sprintf("showing only %s keys; %s", strings.Join(names, ", "), again)}
}

// nextController cycles through "all" and each controller.
func (t *topModel) nextController(back bool) string {
	names := []string{""}
	if t.overview != nil {
		for _, c := range t.overview.Controllers {
			names = append(names, c.Name)
		}
	}
	i := slices.Index(names, t.controller)
	if back {
		i += len(names) - 1
	} else {
		i++
	}
	return names[i%len(names)]
}
