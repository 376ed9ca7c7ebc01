package view

import (
	tea "charm.land/bubbletea/v2"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/widget"
)

// The roles a view may take on the root's stack, beside View and
// Receiver: the root asks each open view for a role by its interface and
// never by the view's name, so that a view added is its file and its
// registration line, with no case in the root. Each is implemented by the
// views that have the role; a view that has none of them is drawn, keyed,
// refreshed and resized through View alone.

// Explainer is a view about the view under it (the ? view): the refresh
// clock and ctrl+r go to the view under it, which its title names, and
// the footer says its keys in words.
type Explainer interface {
	View
	Explains()
}

// KeyShower is a view that shows keys as it last read them: a one-key
// forget dialog over it follows the key's numbers there (the detail, the
// table).
type KeyShower interface {
	Shows(controller, key string) *api.Key
}

// Forecaster is the view whose read says what a forget leaves behind (the
// table, from its counts and limiters): every forget dialog, over it or
// over a view opened from it, says what a next failure waits.
type Forecaster interface {
	ForecastAct(act *widget.Action)
}

// Clamper is a scrolled view that keeps its place within the room left
// when the status line grows or shrinks.
type Clamper interface {
	Clamped() View
}

// Refitter is a view whose reads ask for what fits on the screen (the
// table's page): after any message it reads again when that changed.
type Refitter interface {
	Refitted() (View, tea.Cmd)
}

// Revisitor is a view that reads again when the view opened over it is
// left, rather than on its next clock tick.
type Revisitor interface {
	Revisited() (View, tea.Cmd)
}

// Watcher is a view that reads again on a session's watch event (served
// from the watches' mirrors, so it costs the endpoint nothing), when shown
// and not paused.
type Watcher interface {
	Watched() (View, tea.Cmd)
}

// FootLiner is a view with a line of its own over the footer's status (a
// narrow table's selected key, whole); "" when it has none now.
type FootLiner interface {
	FootLine() string
}

// Driller is a view that shows one error group's keys (a drill-down) in
// place of what it showed, asked by a ShowGroupIntent: the views over it
// are left for it. Drilling is the state it is then in.
type Driller interface {
	DrillInto(in ShowGroupIntent) (View, tea.Cmd)
	Drilling() bool
}

// UnderReader is a view whose ctrl+r reads the view under it too, which
// shows what it selects (the error groups over the table: a group's keys
// are shown there).
type UnderReader interface {
	ReadsUnder() bool
}

// KeyForecaster is a view with its own read of the key's controller (the
// detail): a one-key dialog over it forecasts from that read, so the view
// and the dialog say one number. Forecast leaves act alone (false) when
// the view cannot say.
type KeyForecaster interface {
	Forecast(act *widget.Action) bool
}
