package view

import (
	tea "charm.land/bubbletea/v2"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/widget"
)

// The roles the table takes on the root's stack (roles.go), over its typed
// methods: the root asks for them by interface, never by the view's name.

// Shows is the key as the table's page last read it (KeyShower).
func (t Top) Shows(controller, key string) *api.Key { return t.Row(controller, key) }

// ForecastAct says what a forget of act leaves behind, from the table's
// counts and limiters (Forecaster).
func (t Top) ForecastAct(act *widget.Action) { t.Forecast(act) }

// Refitted reads the page again when the rows that fit changed (Refitter).
func (t Top) Refitted() (View, tea.Cmd) { cmd := t.Refit(); return t, cmd }

// Revisited reads the table again once the view over it is left
// (Revisitor): what it shows may have changed there (a forget).
func (t Top) Revisited() (View, tea.Cmd) { cmd := t.Refresh(); return t, cmd }

// Watched reads the table again on a watch event (Watcher), unless a read
// is under way: its answer shows the change.
func (t Top) Watched() (View, tea.Cmd) {
	if t.Inflight {
		return t, nil
	}
	cmd := t.Refresh()
	return t, cmd
}

// FootLine is, on a narrow screen, the selected row's key whole and its
// last error (FootLiner): the table cut both.
func (t Top) FootLine() string {
	if t.C.Width >= NarrowWidth || t.Selected() == nil {
		return ""
	}
	return t.Table().SelectedLine()
}

// DrillInto shows the keys of one error group, keeping what the table
// showed to go back to (Driller).
func (t Top) DrillInto(in ShowGroupIntent) (View, tea.Cmd) {
	cmd := t.ShowGroup(in, in.From)
	return t, cmd
}
