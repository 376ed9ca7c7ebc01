package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/view"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/widget"
)

// From the `top --for` view to a key's detail: the root attaches to the
// answer's controller and opens the detail view over the list.

// openKey opens the key of an answer (the `top --for` view's, the chain
// view's) in the detail view: on a session already open to its
// controller, else after attaching.
func (m Model) openKey(in view.OpenAnswerKeyIntent) (tea.Model, tea.Cmd) {
	shown, a := in.Shown, in.Raw // shown escaped, for the status line
	f, isFor := m.viewAt(modeFor).(view.For)
	if !view.HasKey(a) || !isFor || f.AttachFunc() == nil {
		return m, nil
	}
	ctl, key := a.Backoff.Controller, a.Backoff.Key.Key
	m.keyFrom = m.topMode()
	id := a.Controller.Namespace + "/" + a.Controller.Target
	if s, ok := f.Kept(id); ok {
		return m.showForKey(view.ForAttachedMsg{ID: id, Controller: ctl, Key: key, Session: s.Session, Objects: s.Objects})
	}
	return m, tea.Batch(view.ForAttachCmd(m.c.Conn.Ctx, f.AttachFunc(), m.c.Conn.Owned, a.Controller, ctl, key),
		m.setStatus("attaching to "+shown.Controller.Target+" -n "+shown.Controller.Namespace+"…", false))
}

// showForKey shows the key detail on the session msg carries; esc there
// comes back to the `top --for` view.
func (m Model) showForKey(msg view.ForAttachedMsg) (tea.Model, tea.Cmd) {
	if msg.Err != nil {
		return m, m.setStatus(widget.ErrText(msg.Err), true)
	}
	if f, ok := m.viewAt(modeFor).(view.For); ok {
		m.setView(modeFor, f.Keep(msg.ID, view.ForSession{Session: msg.Session, Objects: msg.Objects}))
	}
	if m.topMode() != m.keyFrom {
		return m, nil // the user moved on from the view that asked; the session stays for the next time
	}
	m.c.Conn.Session, m.c.Conn.Objects = msg.Session, msg.Objects
	d, cmd := view.Detail{C: m.c}.Open(msg.Controller, msg.Key)
	m.pushView(modeDetail, d)
	return m, cmd
}
