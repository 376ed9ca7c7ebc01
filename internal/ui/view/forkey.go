package view

import (
	"context"
	"fmt"
	"slices"

	tea "charm.land/bubbletea/v2"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/describe"
	objwhy "github.com/kubectl-backoff/kubectl-backoff/internal/inspector/why"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/widget"
)

// ForAttachFunc opens a session on a controller's pods, named as `why`
// found them (TARGET deploy/NAME in namespace), for the key detail.
type ForAttachFunc func(ctx context.Context, namespace, target string) (*inspector.Session, *describe.ObjectReader, error)

// ForAttachedMsg carries the session opened on the controller of the
// answer shown, to open its key in the detail view, or why not.
type ForAttachedMsg struct {
	ID, Controller, Key string
	Session             *inspector.Session
	Objects             *describe.ObjectReader
	Err                 error
}

// ForAttachCmd attaches to the controller that answered for the key.
func ForAttachCmd(ctx context.Context, attach ForAttachFunc, owned *Sessions, c *objwhy.Controller, controller, key string) tea.Cmd {
	id := c.Namespace + "/" + c.Target
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(ctx, attachTimeout)
		defer cancel()
		s, objects, err := attach(ctx, c.Namespace, c.Target)
		if err == nil && !owned.Adopt(s) {
			err = fmt.Errorf("the UI has exited")
		}
		if err != nil {
			return ForAttachedMsg{ID: id, Err: fmt.Errorf("attach %s -n %s: %w", c.Target, c.Namespace, err)}
		}
		return ForAttachedMsg{ID: id, Controller: controller, Key: key, Session: s, Objects: objects}
	}
}

// KeyOfShown is the answer shown when its key was read from an
// instrumented endpoint: the key detail can then open it.
func (f *For) KeyOfShown() *objwhy.Answer {
	if a := f.shown(); HasKey(a) && f.opts.Attach != nil {
		return a
	}
	return nil
}

// HasKey reports whether a's key was read from an instrumented endpoint:
// the key detail can open it.
func HasKey(a *objwhy.Answer) bool {
	return a != nil && a.Controller != nil && a.Backoff != nil && a.Backoff.Source == objwhy.SourceEndpoint && a.Backoff.Key != nil
}

// Keep keeps the session opened on a controller, by NAMESPACE/TARGET.
func (f For) Keep(id string, s ForSession) For {
	// A new map: earlier copies of the model share the old one.
	sessions := make(map[string]ForSession, len(f.sessions)+1)
	for k, v := range f.sessions {
		sessions[k] = v
	}
	sessions[id] = s
	f.sessions = sessions
	return f
}

// Kept is the session kept for a controller, by NAMESPACE/TARGET.
func (f *For) Kept(id string) (ForSession, bool) {
	s, ok := f.sessions[id]
	return s, ok
}

// AttachFunc is how the view attaches to a controller (ForOptions.Attach).
func (f *For) AttachFunc() ForAttachFunc { return f.opts.Attach }

// ForSession is a session the `top --for` view opened on a controller.
type ForSession struct {
	Session *inspector.Session
	Objects *describe.ObjectReader
}

// RawOf is a, an answer of the escaped list, as it was read: the names a
// lookup in the cluster must use (an escaped name names nothing).
func (f *For) RawOf(a *objwhy.Answer) *objwhy.Answer {
	for _, x := range f.asked {
		if x.shown == a {
			return x.raw
		}
	}
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
	out, _ := widget.DeepCopy(l) // a list `why -o json` prints always copies; else it is escaped in place
	widget.PrintableFields(out)
	return out
}

// openKey opens the key of an answer (the view's own, or the chain view's
// over it) in the detail view: on a session already open to its
// controller, else after attaching (ForAttachCmd, whose answer is
// attachedKey's).
func (f For) openKey(in OpenAnswerKeyIntent) (View, tea.Cmd, Intent, bool) {
	shown, a := in.Shown, in.Raw // shown escaped, for the status line
	if !HasKey(a) || f.AttachFunc() == nil {
		return f, nil, nil, true
	}
	ctl, key := a.Backoff.Controller, a.Backoff.Key.Key
	id := a.Controller.Namespace + "/" + a.Controller.Target
	if s, ok := f.Kept(id); ok {
		return f.attachedKey(ForAttachedMsg{ID: id, Controller: ctl, Key: key, Session: s.Session, Objects: s.Objects})
	}
	return f, ForAttachCmd(f.C.Conn.Ctx, f.AttachFunc(), f.C.Conn.Owned, a.Controller, ctl, key),
		NoteIntent{Text: attachingTo(shown.Controller)}, true
}

// attachedKey keeps the session msg carries, for the next key of its
// controller, and opens the key's detail on it if the user is still where
// they asked (OpenWaitedIntent); esc there comes back here.
func (f For) attachedKey(msg ForAttachedMsg) (View, tea.Cmd, Intent, bool) {
	if msg.Err != nil {
		return f, nil, NoteIntent{Text: widget.ErrText(msg.Err), IsErr: true}, true
	}
	f = f.Keep(msg.ID, ForSession{Session: msg.Session, Objects: msg.Objects})
	c := f.C
	return f, nil, OpenWaitedIntent{Open: func() (View, tea.Cmd) {
		// The detail reads through the shared connection: this controller's.
		c.Conn.Session, c.Conn.Objects = msg.Session, msg.Objects
		d, cmd := Detail{C: c}.Open(msg.Controller, msg.Key)
		return d, cmd
	}}, true
}

// attachingTo says what the view attaches to for a key's detail: the
// controller's pods in their namespace, or the --addr endpoint, which has
// none.
func attachingTo(c *objwhy.Controller) string {
	if c.Rule == objwhy.RuleAddr {
		return "attaching to " + c.Target + "…"
	}
	return "attaching to " + c.Target + " -n " + c.Namespace + "…"
}
