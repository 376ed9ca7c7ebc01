package ui

import (
	"context"
	"fmt"
	"slices"

	tea "charm.land/bubbletea/v2"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector"
	objwhy "github.com/kubectl-backoff/kubectl-backoff/internal/inspector/why"
)

// ForAttachFunc opens a session on a controller's pods, named as `why`
// found them (TARGET deploy/NAME in namespace), for the key detail.
type ForAttachFunc func(ctx context.Context, namespace, target string) (*inspector.Session, *inspector.ObjectReader, error)

// forAttachedMsg carries the session opened on the controller of the
// answer shown, to open its key in the detail view, or why not.
type forAttachedMsg struct {
	id, controller, key string
	session             *inspector.Session
	objects             *inspector.ObjectReader
	err                 error
}

// forAttachCmd attaches to the controller that answered for the key.
func forAttachCmd(ctx context.Context, attach ForAttachFunc, owned *sessions, c *objwhy.Controller, controller, key string) tea.Cmd {
	id := c.Namespace + "/" + c.Target
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(ctx, attachTimeout)
		defer cancel()
		s, objects, err := attach(ctx, c.Namespace, c.Target)
		if err == nil && !owned.adopt(s) {
			err = fmt.Errorf("the UI has exited")
		}
		if err != nil {
			return forAttachedMsg{id: id, err: fmt.Errorf("attach %s -n %s: %w", c.Target, c.Namespace, err)}
		}
		return forAttachedMsg{id: id, controller: controller, key: key, session: s, objects: objects}
	}
}

// keyOfShown is the answer shown when its key was read from an
// instrumented endpoint: the key detail can then open it.
func (f *forModel) keyOfShown() *objwhy.Answer {
	if a := f.shown(); hasKey(a) && f.opts.Attach != nil {
		return a
	}
	return nil
}

// hasKey reports whether a's key was read from an instrumented endpoint:
// the key detail can open it.
func hasKey(a *objwhy.Answer) bool {
	return a != nil && a.Controller != nil && a.Backoff != nil && a.Backoff.Source == objwhy.SourceEndpoint && a.Backoff.Key != nil
}

// openKey opens the key of the answer in the detail view: on a session
// already open to its controller, else after attaching.
func (m Model) openKey(in openAnswerKeyIntent) (tea.Model, tea.Cmd) {
	shown, a := in.shown, in.raw // shown escaped, for the status line
	if !hasKey(a) || m.forv.attachFunc() == nil {
		return m, nil
	}
	ctl, key := a.Backoff.Controller, a.Backoff.Key.Key
	id := a.Controller.Namespace + "/" + a.Controller.Target
	if s, ok := m.forv.kept(id); ok {
		return m.showForKey(forAttachedMsg{id: id, controller: ctl, key: key, session: s.session, objects: s.objects})
	}
	return m, tea.Batch(forAttachCmd(m.c.conn.ctx, m.forv.attachFunc(), m.c.conn.owned, a.Controller, ctl, key),
		m.setStatus("attaching to "+shown.Controller.Target+" -n "+shown.Controller.Namespace+"…", false))
}

// showForKey shows the key detail on the session msg carries; esc there
// comes back to the `top --for` view.
func (m Model) showForKey(msg forAttachedMsg) (tea.Model, tea.Cmd) {
	if msg.err != nil {
		return m, m.setStatus(errText(msg.err), true)
	}
	m.forv = m.forv.keep(msg.id, forSession{session: msg.session, objects: msg.objects})
	if md := m.topMode(); md != modeFor && md != modeChain {
		return m, nil // the user moved on; the session stays for the next time
	}
	m.c.conn.session, m.c.conn.objects = msg.session, msg.objects
	m.push(modeDetail)
	var cmd tea.Cmd
	m.detail, cmd = m.detail.open(msg.controller, msg.key)
	return m, cmd
}

// keep keeps the session opened on a controller, by NAMESPACE/TARGET.
func (f forModel) keep(id string, s forSession) forModel {
	// A new map: earlier copies of the model share the old one.
	sessions := make(map[string]forSession, len(f.sessions)+1)
	for k, v := range f.sessions {
		sessions[k] = v
	}
	sessions[id] = s
	f.sessions = sessions
	return f
}

// kept is the session kept for a controller, by NAMESPACE/TARGET.
func (f *forModel) kept(id string) (forSession, bool) {
	s, ok := f.sessions[id]
	return s, ok
}

// attachFunc is how the view attaches to a controller (ForOptions.Attach).
func (f *forModel) attachFunc() ForAttachFunc { return f.opts.Attach }

// forSession is a session the `top --for` view opened on a controller.
type forSession struct {
	session *inspector.Session
	objects *inspector.ObjectReader
}

// rawOf is a, an answer of the escaped list, as it was read: the names a
// lookup in the cluster must use (an escaped name names nothing).
func (f *forModel) rawOf(a *objwhy.Answer) *objwhy.Answer {
	if f.raw != nil && f.list != nil {
		if i := slices.Index(f.list.Answers, a); i >= 0 && i < len(f.raw.Answers) {
			return f.raw.Answers[i]
		}
	}
	return a
}

// escapedCopy is l, deep-copied, with every string escaped for the
// terminal (printableFields): objects' names, conditions and events are
// the cluster's text.
func escapedCopy(l *objwhy.List) *objwhy.List {
	out, _ := deepCopy(l) // a list `why -o json` prints always copies; else it is escaped in place
	printableFields(out)
	return out
}
