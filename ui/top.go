package ui

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// filterState is the three states of the filter, as in bubbles/list.
type filterState int

const (
	unfiltered    filterState = iota
	filtering                 // the user is typing the filter
	filterApplied             // a filter is set and the table shows its matches
)

// sorts are the orders s cycles through.
var sorts = []string{api.SortNext, api.SortFailures, api.SortSince, api.SortKey}

// headerLines is how many lines the header above the table takes.
const headerLines = 5

// topModel is the live table of keys: what it asks the endpoint for, and
// the last answer.
type topModel struct {
	c *common

	// The query.
	controller  string
	states      map[api.State]bool
	sort        int
	filter      textinput.Model
	filterState filterState
	applied     string // the filter the table shows
	offset      int
	cursor      int

	// The last answer.
	overview  *inspector.Overview
	page      *inspector.KeyList
	fetchedAt time.Time
	err       error

	// Rows changed since the previous refresh of the same query.
	prevQuery string
	prev      map[string]string
	changed   map[string]bool

	seq      int
	inflight bool
	lastSent time.Time
}

func newTopModel(c *common) topModel {
	ti := textinput.New()
	ti.Prompt = "/"
	ti.Placeholder = "substring, or ~regex"
	ti.CharLimit = maxFilterLen
	t := topModel{c: c, filter: ti, states: map[api.State]bool{}, controller: c.opts.Controller}
	for _, s := range c.opts.States {
		t.states[s] = true
	}
	if c.opts.Filter != "" {
		t.filter.SetValue(c.opts.Filter)
		t.applied, t.filterState = c.opts.Filter, filterApplied
	}
	return t
}

// rows is how many table rows fit.
func (t *topModel) rows() int { return max(1, t.c.height-headerLines-2) }

// query is the page the table shows.
func (t *topModel) query() inspector.KeyQuery {
	return inspector.KeyQuery{
		Controller: t.controller, Q: t.applied, States: t.stateList(),
		Sort: sorts[t.sort], Limit: min(t.rows(), maxPage), Offset: t.offset,
	}
}

func (t *topModel) stateList() []api.State {
	var out []api.State
	for _, s := range api.States {
		if t.states[s] {
			out = append(out, s)
		}
	}
	return out
}

func queryID(q inspector.KeyQuery) string {
	return fmt.Sprintf("%s|%s|%v|%s|%d|%d", q.Controller, q.Q, q.States, q.Sort, q.Limit, q.Offset)
}

// refresh starts a fetch of what the top view shows.
func (t *topModel) refresh() tea.Cmd {
	t.seq++
	t.inflight = true
	t.lastSent = t.c.now()
	return refreshCmd(t.c.opts.ctx, t.c.opts.Session, t.c.opts.Clock, t.seq, t.query())
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
	t.filter.SetWidth(max(10, t.c.width-10))
	if t.page != nil && t.query().Limit != len(t.page.Items) && len(t.page.Items) < t.page.Matched-t.offset {
		return t, t.refresh()
	}
	return t, nil
}

// received takes a refresh in, marking the rows that changed since the
// previous refresh of the same query.
func (t topModel) received(msg refreshedMsg) topModel {
	if msg.seq != t.seq {
		return t // a newer query is under way
	}
	t.inflight = false
	t.err = msg.err
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
		return t
	}
	t.page, t.fetchedAt = msg.page, msg.fetchedAt
	id := queryID(t.query())
	sigs := make(map[string]string, len(msg.page.Items))
	t.changed = map[string]bool{}
	for _, k := range msg.page.Items {
		rid := rowID(&k)
		sigs[rid] = signature(&k.Key)
		if t.prev != nil && t.prevQuery == id && sigs[rid] != t.prev[rid] {
			t.changed[rid] = true
		}
	}
	t.prev, t.prevQuery = sigs, id
	t.cursor = max(0, min(t.cursor, len(msg.page.Items)-1))
	return t
}

func rowID(k *inspector.PodKey) string { return k.Pod + "|" + k.Controller + "|" + k.Key.Key }

// signature is what makes a row "changed" when it differs between refreshes.
func signature(k *api.Key) string {
	var lastErr time.Time
	if k.LastError != nil {
		lastErr = k.LastError.At
	}
	return fmt.Sprintf("%s|%d|%d|%d|%d", k.State, k.Failures, k.Reconciles, k.NextRetryAt.UnixNano(), lastErr.UnixNano())
}

// update handles the top view's keys; the root handles the rest.
func (t topModel) update(msg tea.KeyPressMsg) (topModel, tea.Cmd) {
	k := t.c.keys
	if t.filterState == filtering {
		return t.updateFilter(msg)
	}
	before := queryID(t.query())
	rows := t.rows()
	switch {
	case key.Matches(msg, k.Up):
		if t.cursor > 0 {
			t.cursor--
		} else if t.offset > 0 {
			t.offset--
		}
	case key.Matches(msg, k.Down):
		if t.page != nil && t.cursor < len(t.page.Items)-1 {
			t.cursor++
		} else if t.offset+rows < t.matched() {
			t.offset++
		}
	case key.Matches(msg, k.PageUp):
		t.offset = max(0, t.offset-rows)
	case key.Matches(msg, k.PageDown):
		t.offset = max(0, min(t.offset+rows, t.matched()-rows))
	case key.Matches(msg, k.Home):
		t.offset, t.cursor = 0, 0
	case key.Matches(msg, k.End):
		t.offset, t.cursor = max(0, t.matched()-rows), rows-1
	case key.Matches(msg, k.Filter):
		t.filterState = filtering
		t.filter.SetValue(t.applied)
		t.filter.CursorEnd()
		return t, t.filter.Focus()
	case key.Matches(msg, k.Back) && t.filterState == filterApplied:
		t.filterState, t.applied, t.offset, t.cursor = unfiltered, "", 0, 0
		t.filter.SetValue("")
	case key.Matches(msg, k.States):
		i := int(msg.Text[0] - '1')
		if i >= 0 && i < len(api.States) {
			st := api.States[i]
			t.states[st] = !t.states[st]
			t.offset, t.cursor = 0, 0
		}
	case key.Matches(msg, k.Sort):
		t.sort = (t.sort + 1) % len(sorts)
		t.offset, t.cursor = 0, 0
	case key.Matches(msg, k.Controller):
		t.controller = t.nextController(msg.String() == "shift+tab")
		t.offset, t.cursor = 0, 0
	}
	if queryID(t.query()) != before {
		return t, t.refresh()
	}
	return t, nil
}

// updateFilter edits the filter; it is applied (server-side) as it is typed,
// whenever it is a valid filter.
func (t topModel) updateFilter(msg tea.KeyPressMsg) (topModel, tea.Cmd) {
	switch msg.String() {
	case "esc":
		t.filter.Blur()
		t.filter.SetValue(t.applied)
		if t.applied == "" {
			t.filterState = unfiltered
		} else {
			t.filterState = filterApplied
		}
		return t, nil
	case "enter", "up", "down":
		t.filter.Blur()
		t.filterState = unfiltered
		if t.applied != "" {
			t.filterState = filterApplied
		}
		return t, nil
	}
	var cmd tea.Cmd
	t.filter, cmd = t.filter.Update(msg)
	v := t.filter.Value()
	if v == t.applied || !validFilter(v) {
		return t, cmd
	}
	t.applied, t.offset, t.cursor = v, 0, 0
	return t, tea.Batch(cmd, t.refresh())
}

// validFilter reports whether the endpoint would take q: a "~" regex must compile.
func validFilter(q string) bool {
	if rest, ok := strings.CutPrefix(q, "~"); ok {
		_, err := regexp.Compile(rest)
		return err == nil
	}
	return true
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
