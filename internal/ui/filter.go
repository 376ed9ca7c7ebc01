package ui

import (
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/kubectl-backoff/kubectl-backoff/internal/query"
)

// filterState is the three states of a filter, as in bubbles/list.
type filterState int

const (
	unfiltered    filterState = iota
	filtering                 // the user is typing the filter
	filterApplied             // a filter is set and the view shows its matches
)

// maxFilterLen is the endpoint's bound on a filter's q.
const maxFilterLen = query.MaxQueryLen

// filterModel is the one filter component of the UI, used by the top view
// and the pod picker: a prompt applied as it is typed whenever what is typed
// is a valid filter, and the reason inline when it is not.
type filterModel struct {
	keys    filterKeys
	input   textinput.Model
	state   filterState
	applied string // the filter the view shows
	before  string // the filter applied when the typing began, for esc
	invalid string // why what is typed is not applied; "" when it is
	// refused is true once enter was pressed on an invalid filter, until
	// the next key: the line then says that enter did not apply it.
	refused bool
}

func newFilter(keys filterKeys, q string) filterModel {
	ti := textinput.New()
	ti.Prompt = "/"
	ti.Placeholder = "substring, or ~regex"
	ti.CharLimit = maxFilterLen
	f := filterModel{keys: keys, input: ti}
	f.set(q)
	return f
}

// set applies q, as if typed and accepted.
func (f *filterModel) set(q string) {
	f.input.SetValue(q)
	f.applied, f.invalid = q, ""
	f.state = f.settled()
}

// typing reports whether the user is typing the filter.
func (f *filterModel) typing() bool { return f.state == filtering }

// start begins typing, from the filter applied.
func (f filterModel) start() (filterModel, tea.Cmd) {
	f.state, f.before, f.refused = filtering, f.applied, false
	f.input.SetValue(f.applied)
	f.input.CursorEnd()
	return f, f.input.Focus()
}

// update handles a key while typing, with the filter line's own keys
// (filterKeys); changed reports that the filter applied changed, done that
// the typing ended.
func (f filterModel) update(msg tea.KeyPressMsg) (_ filterModel, _ tea.Cmd, changed, done bool) {
	k := f.keys
	switch {
	case key.Matches(msg, k.Cancel):
		// Back to the filter applied before the typing: it was applied
		// as typed, so undoing the typing changes the view back too.
		f.input.Blur()
		changed := f.applied != f.before
		f.applied, f.invalid, f.refused = f.before, "", false
		f.input.SetValue(f.applied)
		f.state = f.settled()
		return f, nil, changed, true
	case key.Matches(msg, k.Accept) && f.invalid != "":
		// What is typed is not a filter: applying what was applied while
		// it was typed ("~", on the way to "~[abc") would show keys the
		// user did not ask for. Typing goes on, and the line says why.
		f.refused = true
		return f, nil, false, false
	case key.Matches(msg, k.Accept):
		f.input.Blur()
		f.input.SetValue(f.applied)
		f.invalid = ""
		f.state = f.settled()
		return f, nil, false, true
	}
	f.refused = false
	var cmd tea.Cmd
	f.input, cmd = f.input.Update(msg)
	v := f.input.Value()
	if err := validFilter(v); err != nil {
		f.invalid = err.Error()
		return f, cmd, false, false
	}
	f.invalid = ""
	if v == f.applied {
		return f, cmd, false, false
	}
	f.applied = v
	return f, cmd, true, false
}

// clear removes the filter.
func (f *filterModel) clear() { f.set("") }

// settled is the state once typing ends.
func (f *filterModel) settled() filterState {
	if f.applied == "" {
		return unfiltered
	}
	return filterApplied
}

// setWidth fits the prompt to the terminal.
func (f *filterModel) setWidth(w int) { f.input.SetWidth(max(10, w-10)) }

// view is the prompt while typing and, under it, why what is typed is not
// applied, wrapped to w.
func (f *filterModel) view(st *styles, w int) []string {
	lines := []string{fit(f.input.View(), w)}
	if f.invalid != "" {
		msg := "✗ " + f.invalid + " — still showing " + describeFilter(f.applied) + "; keep typing, or esc"
		if f.refused {
			msg = "✗ enter applies nothing: " + f.invalid + " — fix it, or esc goes back to " + describeFilter(f.before)
		}
		for _, l := range wrap(msg, w) {
			lines = append(lines, st.statusErr.Render(fit(l, w)))
		}
	}
	return lines
}

// describeFilter names a filter as typed, for messages.
func describeFilter(q string) string {
	if q == "" {
		return "every key"
	}
	return `"` + q + `"`
}

// validFilter says why the endpoint would refuse q, as the endpoint says it.
func validFilter(q string) error { return query.FilterError(q) }

// filterMatcher is q as the endpoint matches it (smart case, or a regular
// expression after "~"). q must be valid.
func filterMatcher(q string) func(string) bool { return query.MatchText(q) }

// filterKeys are the filter line's while it is typed: enter (or an arrow,
// as in the top view) keeps what is typed, esc goes back to the filter
// before. Every other key is typed.
type filterKeys struct{ Accept, Cancel key.Binding }

// ShortHelp is the filter line's hints. help.KeyMap.
func (k filterKeys) ShortHelp() []key.Binding { return []key.Binding{k.Accept, k.Cancel} }

// FullHelp is ShortHelp in one column. help.KeyMap.
func (k filterKeys) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }
