package ui

import (
	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"
)

// The six views as the root sees them (layer.go): each view's typed update,
// view, refresh and setSize, adapted to the view interface. A view added
// later keeps these few lines in its own file.

// The table: the view the UI opens on, and the drill-down's.

func (t topModel) onKey(msg tea.KeyPressMsg) (view, tea.Cmd, intent) { return t.update(msg) }
func (t topModel) render() string                                    { return t.view() }
func (t topModel) hintKeys() help.KeyMap                             { return t.keys() }
func (t topModel) stale() bool                                       { return t.c.conn.session != nil && t.due() }
func (t topModel) reload() (view, tea.Cmd)                           { cmd := t.refresh(); return t, cmd }
func (t topModel) reloadNow() (view, tea.Cmd)                        { return t.reload() }
func (t topModel) resize() (view, tea.Cmd)                           { return t.setSize() }
func (t topModel) onFilterKey(msg tea.KeyPressMsg) (view, tea.Cmd, intent) {
	return t.filterKey(msg)
}
func (t topModel) onFilterInput(msg tea.Msg) (view, tea.Cmd) { return t.filterInput(msg) }

// A key's detail.

func (d detailModel) onKey(msg tea.KeyPressMsg) (view, tea.Cmd, intent) { return d.update(msg) }
func (d detailModel) render() string                                    { return d.view() }
func (d detailModel) hintKeys() help.KeyMap                             { return d.c.keys.detail() }
func (d detailModel) stale() bool                                       { return d.c.conn.session != nil && d.due() }
func (d detailModel) reload() (view, tea.Cmd)                           { cmd := d.refresh(); return d, cmd }
func (d detailModel) reloadNow() (view, tea.Cmd)                        { return d.reload() }
func (d detailModel) resize() (view, tea.Cmd)                           { return d.setSize(), nil }

// The error groups. Its ctrl+r reads the table under it too (readsTable):
// a group's keys are shown there when one is picked.

func (g groupModel) onKey(msg tea.KeyPressMsg) (view, tea.Cmd, intent) { return g.update(msg) }
func (g groupModel) render() string                                    { return g.view() }
func (g groupModel) hintKeys() help.KeyMap                             { return g.c.keys.group() }
func (g groupModel) stale() bool                                       { return g.c.conn.session != nil && g.due() }
func (g groupModel) reload() (view, tea.Cmd)                           { cmd := g.refresh(); return g, cmd }
func (g groupModel) reloadNow() (view, tea.Cmd)                        { return g.reload() }
func (g groupModel) resize() (view, tea.Cmd)                           { g.clamp(); return g, nil }
func (g groupModel) readsTable() bool                                  { return true }

// Help: reads nothing.

func (m helpModel) onKey(msg tea.KeyPressMsg) (view, tea.Cmd, intent) { return m.update(msg) }
func (m helpModel) render() string                                    { return m.view() }
func (m helpModel) hintKeys() help.KeyMap                             { return m.c.keys.help() }
func (m helpModel) stale() bool                                       { return false }
func (m helpModel) reload() (view, tea.Cmd)                           { return m, nil }
func (m helpModel) reloadNow() (view, tea.Cmd)                        { return m, nil }
func (m helpModel) resize() (view, tea.Cmd)                           { return m.setSize(), nil }

// The pod picker: reads nothing until a pod is attached.

func (p pickerModel) onKey(msg tea.KeyPressMsg) (view, tea.Cmd, intent) { return p.update(msg) }
func (p pickerModel) render() string                                    { return p.view() }
func (p pickerModel) hintKeys() help.KeyMap                             { return p.c.keys.picker() }
func (p pickerModel) stale() bool                                       { return false }
func (p pickerModel) reload() (view, tea.Cmd)                           { return p, nil }
func (p pickerModel) reloadNow() (view, tea.Cmd)                        { return p, nil }
func (p pickerModel) resize() (view, tea.Cmd)                           { return p.setSize(), nil }
func (p pickerModel) onFilterKey(msg tea.KeyPressMsg) (view, tea.Cmd, intent) {
	return p.filterKey(msg)
}
func (p pickerModel) onFilterInput(msg tea.Msg) (view, tea.Cmd) { return p.filterInput(msg) }

// `top --for`: reads through its own sessions, so it refreshes with none
// attached; ctrl+r reads once more even while a read is under way.

func (f forModel) onKey(msg tea.KeyPressMsg) (view, tea.Cmd, intent) { return f.update(msg) }
func (f forModel) render() string                                    { return f.view() }
func (f forModel) hintKeys() help.KeyMap                             { return f.keyMap() }
func (f forModel) stale() bool                                       { return f.due() }
func (f forModel) reload() (view, tea.Cmd)                           { cmd := f.refresh(); return f, cmd }
func (f forModel) reloadNow() (view, tea.Cmd)                        { cmd := f.refreshOnce(); return f, cmd }
func (f forModel) resize() (view, tea.Cmd)                           { return f, nil }
