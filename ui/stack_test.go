package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/view"
)

// The tests read the views as the stack holds them: each accessor is a
// copy of the view open (a zero view when it is not), and the setters
// store a changed one back, as the root does after an update.

// tbl is the table.
func (m Model) tbl() *view.Top { t := m.table(); return &t }

// table is the top view as the stack holds it; a table never read when the
// UI shows none (the picker, `top --for`, the fleet).
func (m *Model) table() view.Top {
	if t, ok := m.viewAt(modeTop).(view.Top); ok {
		return t
	}
	return view.NewTop(m.c)
}

// withTable changes the table on the stack through f.
func (m *Model) withTable(f func(t *view.Top) tea.Cmd) tea.Cmd {
	t := m.table()
	cmd := f(&t)
	m.setView(modeTop, t)
	return cmd
}

// det is the key's detail view open.
func (m Model) det() *view.Detail { d, _ := m.viewAt(modeDetail).(view.Detail); return &d }

// grp is the error groups view open.
func (m Model) grp() *view.Groups { g, _ := m.viewAt(modeGroups).(view.Groups); return &g }

// pick is the pod picker open.
func (m Model) pick() *view.Picker { p, _ := m.viewAt(modePicker).(view.Picker); return &p }

// forV is the `top --for` view open.
func (m Model) forV() *view.For { f, _ := m.viewAt(modeFor).(view.For); return &f }

// hlp is the ? view open.
func (m Model) hlp() *view.Help { h, _ := m.viewAt(modeHelp).(view.Help); return &h }

// setTop changes the table through f.
func (m *Model) setTop(f func(t *view.Top)) {
	m.withTable(func(t *view.Top) tea.Cmd { f(t); return nil })
}

// onDetail runs f on the detail view open, and keeps what it changed.
func (m *Model) onDetail(f func(d *view.Detail) tea.Cmd) tea.Cmd {
	d := m.det()
	cmd := f(d)
	m.setView(modeDetail, *d)
	return cmd
}

// setDetail changes the detail view open through f.
func (m *Model) setDetail(f func(d *view.Detail)) {
	d := m.det()
	f(d)
	m.setView(modeDetail, *d)
}

// refreshTop, refreshGroups and refreshFor send the view's read, as the
// refresh clock does.
func (m *Model) refreshTop() tea.Cmd { return m.withTable((*view.Top).Refresh) }

func (m *Model) refreshGroups() tea.Cmd {
	g := m.grp()
	cmd := g.Refresh()
	m.setView(modeGroups, *g)
	return cmd
}

func (m *Model) refreshFor() tea.Cmd {
	f := m.forV()
	cmd := f.Refresh()
	m.setView(modeFor, *f)
	return cmd
}
