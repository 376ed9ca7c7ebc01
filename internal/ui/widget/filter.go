package widget

import (
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/kubectl-backoff/kubectl-backoff/internal/query"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// FilterState is the three states of a filter, as in bubbles/list.
type FilterState int

// The filter's states.
const (
	Unfiltered    FilterState = iota // no filter
	Filtering                        // the user is typing the filter
	FilterApplied                    // a filter is set and the view shows its matches
)

// MaxFilterLen is the endpoint's bound on a filter's q.
const MaxFilterLen = query.MaxQueryLen

// Filter is the one filter component of the UI, used by the top view
// and the pod picker: a prompt applied as it is typed whenever what is typed
// is a valid filter, and the reason inline when it is not.
type Filter struct {
	keys FilterKeys
	// Input is the prompt; a view passes it the messages that are not keys
	// (the cursor's blink) while the filter is typed.
	Input textinput.Model
	// State is where the filter stands; Applied, the filter the view shows.
	// Both change through the methods only.
	State   FilterState
	Applied string
	before  string // the filter applied when the typing began, for esc
	invalid string // why what is typed is not applied; "" when it is
	// refused is true once enter was pressed on an invalid filter, until
	// the next key: the line then says that enter did not apply it.
	refused bool
}

// NewFilter is a filter line ending its typing with keys, with q applied.
func NewFilter(keys FilterKeys, q string) Filter {
	ti := textinput.New()
	ti.Prompt = "/"
	ti.Placeholder = "substring, or ~regex"
	ti.CharLimit = MaxFilterLen
	f := Filter{keys: keys, Input: ti}
	f.Set(q)
	return f
}

// Set applies q, as if typed and accepted.
func (f *Filter) Set(q string) {
	f.Input.SetValue(q)
	f.Applied, f.invalid = q, ""
	f.State = f.settled()
}

// Typing reports whether the user is typing the filter.
func (f *Filter) Typing() bool { return f.State == Filtering }

// Start begins typing, from the filter applied.
func (f Filter) Start() (Filter, tea.Cmd) {
	f.State, f.before, f.refused = Filtering, f.Applied, false
	f.Input.SetValue(f.Applied)
	f.Input.CursorEnd()
	return f, f.Input.Focus()
}

// Update handles a key while typing, with the filter line's own keys
// (filterKeys); changed reports that the filter applied changed, done that
// the typing ended.
func (f Filter) Update(msg tea.KeyPressMsg) (_ Filter, _ tea.Cmd, changed, done bool) {
	k := f.keys
	switch {
	case key.Matches(msg, k.Cancel):
		// Back to the filter applied before the typing: it was applied
		// as typed, so undoing the typing changes the view back too.
		f.Input.Blur()
		changed := f.Applied != f.before
		f.Applied, f.invalid, f.refused = f.before, "", false
		f.Input.SetValue(f.Applied)
		f.State = f.settled()
		return f, nil, changed, true
	case key.Matches(msg, k.Accept) && f.invalid != "":
		// What is typed is not a filter: applying what was applied while
		// it was typed ("~", on the way to "~[abc") would show keys the
		// user did not ask for. Typing goes on, and the line says why.
		f.refused = true
		return f, nil, false, false
	case key.Matches(msg, k.Accept):
		f.Input.Blur()
		f.Input.SetValue(f.Applied)
		f.invalid = ""
		f.State = f.settled()
		return f, nil, false, true
	}
	f.refused = false
	var cmd tea.Cmd
	f.Input, cmd = f.Input.Update(msg)
	v := f.Input.Value()
	if err := ValidFilter(v); err != nil {
		f.invalid = err.Error()
		return f, cmd, false, false
	}
	f.invalid = ""
	if v == f.Applied {
		return f, cmd, false, false
	}
	f.Applied = v
	return f, cmd, true, false
}

// Clear removes the filter.
func (f *Filter) Clear() { f.Set("") }

// settled is the state once typing ends.
func (f *Filter) settled() FilterState {
	if f.Applied == "" {
		return Unfiltered
	}
	return FilterApplied
}

// SetWidth fits the prompt to the terminal.
func (f *Filter) SetWidth(w int) { f.Input.SetWidth(max(10, w-10)) }

// View is the prompt while typing and, under it, why what is typed is not
// applied, wrapped to w.
func (f *Filter) View(st *Styles, w int) []string {
	lines := []string{Fit(f.Input.View(), w)}
	if f.invalid != "" {
		msg := "✗ " + f.invalid + " — still showing " + DescribeFilter(f.Applied) + "; keep typing, or esc"
		if f.refused {
			msg = "✗ enter applies nothing: " + f.invalid + " — fix it, or esc goes back to " + DescribeFilter(f.before)
		}
		for _, l := range text.Wrap(msg, w) {
			lines = append(lines, st.StatusErr.Render(Fit(l, w)))
		}
	}
	return lines
}

// DescribeFilter names a filter as typed, for messages.
func DescribeFilter(q string) string {
	if q == "" {
		return "every key"
	}
	return `"` + q + `"`
}

// ValidFilter says why the endpoint would refuse q, as the endpoint says it.
func ValidFilter(q string) error { return query.FilterError(q) }

// FilterMatcher is q as the endpoint matches it (smart case, or a regular
// expression after "~"). q must be valid.
func FilterMatcher(q string) func(string) bool { return query.MatchText(q) }

// FilterKeys are the filter line's while it is typed: enter (or an arrow,
// as in the top view) keeps what is typed, esc goes back to the filter
// before. Every other key is typed.
type FilterKeys struct{ Accept, Cancel key.Binding }

// ShortHelp is the filter line's hints. help.KeyMap.
func (k FilterKeys) ShortHelp() []key.Binding { return []key.Binding{k.Accept, k.Cancel} }

// FullHelp is ShortHelp in one column. help.KeyMap.
func (k FilterKeys) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }
