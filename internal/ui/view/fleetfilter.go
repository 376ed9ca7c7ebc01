package view

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	fleetread "github.com/kubectl-backoff/kubectl-backoff/internal/inspector/fleet"
)

// The fleet view's filter line: / types a pattern over each row's
// cluster/namespace/controller, as top's and get's -q (a substring, smart
// case, or a "~" regular expression); enter keeps it, esc restores the
// one before. The rows are filtered as it is typed: they are all held.

// startFilter opens the filter line on the current filter.
func (v Fleet) startFilter() (Fleet, tea.Cmd, Intent) {
	v.typing, v.before = true, v.opts.Filter
	return v, nil, TypingIntent(true)
}

// filterKey edits the filter line.
func (v Fleet) filterKey(msg tea.KeyPressMsg) (Fleet, tea.Cmd, Intent) {
	k := v.C.Keys
	switch {
	case key.Matches(msg, k.CancelFilter):
		v.opts.Filter = v.before
	case key.Matches(msg, k.AcceptFilter):
		if err := fleetread.CheckFilter(v.opts.Filter); err != nil {
			return v, nil, NoteIntent{Text: err.Error(), IsErr: true}
		}
	case msg.Code == tea.KeyBackspace:
		if r := []rune(v.opts.Filter); len(r) > 0 {
			v.opts.Filter = string(r[:len(r)-1])
		}
		v.refilter()
		return v, nil, nil
	default:
		if msg.Text != "" {
			v.opts.Filter += msg.Text
			v.refilter()
		}
		return v, nil, nil
	}
	v.typing = false
	v.refilter()
	return v, nil, TypingIntent(false)
}

// refilter applies the filter as typed, when it is one Filter takes.
func (v *Fleet) refilter() {
	if v.last != nil && fleetread.CheckFilter(v.opts.Filter) == nil {
		v.apply()
	}
}

// filterLine is the filter as shown under the header, when there is one.
func (v Fleet) filterLine() string {
	switch {
	case v.typing:
		return "/" + v.opts.Filter + "▏"
	case v.opts.Filter != "":
		return "filter: " + v.opts.Filter + "  (/ to change)"
	}
	return ""
}

// OnFilterKey handles a key while the filter line is typed. FilterView.
func (v Fleet) OnFilterKey(msg tea.KeyPressMsg) (View, tea.Cmd, Intent) { return v.filterKey(msg) }

// OnFilterInput takes nothing but keys. FilterView.
func (v Fleet) OnFilterInput(tea.Msg) (View, tea.Cmd) { return v, nil }

var _ FilterView = Fleet{}
