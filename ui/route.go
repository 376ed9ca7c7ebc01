package ui

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/view"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/widget"
)

// key routes a key press to the mode on top of the stack, which handles it
// with its own key map, and acts on the intent it returns. ctrl+c is the
// root's: it quits from anywhere, a filter or the dialog included; so are
// the keys the views share (quit, help, pause, refresh: layer.go's shared).
func (m Model) key(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	if key.Matches(msg, m.c.Keys.Interrupt) {
		return m, tea.Quit
	}
	var cmd tea.Cmd
	var in view.Intent
	if key.Matches(msg, m.c.Keys.StillPause) && hasBinding(m.keysOf(m.topMode()), m.c.Keys.Pause) {
		// Before the views: p and ctrl+r are those of the views that
		// pause, disabled over a snapshot.
		return m.act(view.NoteIntent{Text: m.c.StillText()}, nil)
	}
	switch md := m.topMode(); md {
	case modeConfirm:
		var act *widget.Action
		var answered bool
		if cmd, act, answered = m.dialog().Update(msg); answered {
			in = view.AnswerIntent{Act: act}
		}
	case modeFilter: // the filter line of the view under it
		var v view.View
		v, cmd, in = m.viewAt(m.view()).(view.FilterView).OnFilterKey(msg)
		m.setView(m.view(), v)
	default:
		v := m.viewAt(md)
		var ok bool
		if cmd, in, ok = m.shared(v, msg); !ok {
			v, cmd, in = v.OnKey(msg)
			m.setView(md, v)
		}
	}
	return m.act(in, cmd)
}

// act does what a view asked for, after its own command cmd: opening a
// view or a mode pushes it, leaving one pops it.
func (m Model) act(in view.Intent, cmd tea.Cmd) (tea.Model, tea.Cmd) {
	var next tea.Cmd
	switch in := in.(type) {
	case nil:
	case view.OpenIntent:
		md, ok := modeOf(in.View)
		if !ok {
			next = m.setStatus(fmt.Sprintf("no view %T is registered (registerView)", in.View), true)
			break
		}
		m.pushView(md, in.View)
		next = in.Cmd
	case view.OpenHelpIntent:
		under := m.viewUnder()
		return m.act(view.OpenHelp(m.c, in.Keys, helpTitles[under], m.viewAt(under)), cmd)
	case view.CloseHelpIntent:
		m.pop()
	case view.BackIntent:
		m.pop()
		md := m.view()
		if r, ok := m.viewAt(md).(view.Revisitor); ok {
			var v view.View
			v, next = r.Revisited()
			m.setView(md, v)
		}
	case view.TypingIntent:
		// The filter line is the view's state (view.FilterView.Typing):
		// nothing to push or pop.
	case view.PauseIntent:
		m.c.Paused = !m.c.Paused
		if m.c.Paused {
			m.c.Pauses++ // what was sent before is dropped (pause.go)
			next = m.setHint("paused: p resumes, ctrl+r refreshes once", modePaused)
		} else {
			next = tea.Batch(m.refreshNow(), m.setStatus("resumed", false))
		}
	case view.RefreshIntent:
		next = m.refreshNow()
	case view.ShowGroupIntent:
		// Back to the view that drills (the table), in a drill-down:
		// drilling again from one keeps it, so esc goes back to the view
		// before any group. The drill-down is that view's state; the group
		// view it came from goes with it, to go back to as it is
		// (LeftDrillIntent).
		i := m.topmost(isDriller)
		if i < 0 {
			break
		}
		m.stack = m.stack[:i+1]
		v, cmd := m.stack[i].v.(view.Driller).DrillInto(in)
		m.setView(m.stack[i].md, v)
		hint := "showing the keys of one error group: esc goes back to the view before it"
		if in.From != nil {
			hint = "showing the keys of one error group: esc goes back to the error groups"
		}
		next = tea.Batch(cmd, m.setHint(hint, modeDrill))
	case view.LeftDrillIntent:
		if i := m.topmost(isDriller); i >= 0 {
			m.stack = m.stack[:i+1]
		}
		next = m.setStatus(in.Text, false)
		if in.Back != nil {
			// Where the user came from, read again: the view under it is
			// the view from before the drill-down.
			v, read := in.Back.Reload()
			md, _ := modeOf(v)
			m.pushView(md, v)
			next = tea.Batch(read, next)
		}
	case view.AskIntent:
		var mm tea.Model
		mm, next = m.ask(in.Act)
		m = mm.(Model)
	case view.AnswerIntent:
		m.closeDialog()
		if in.Act == nil {
			next = m.setOutcome("cancelled: nothing was changed", false)
			break
		}
		next = tea.Batch(forgetCmd(m.c.Conn.Ctx, m.c.Conn.Session, *in.Act), m.setOutcome(in.Act.Verb()+"…", false))
	case view.OpenAnswerKeyIntent:
		// Offered to the open views: the one that holds the sessions to
		// the answer's controller (`top --for`'s) opens it, after
		// attaching when it must; only where the user still is then
		// (OpenWaitedIntent).
		m.keyFrom = m.topMode()
		m, next, _ = m.receive(in)
	case view.OpenWaitedIntent:
		if m.topMode() != m.keyFrom {
			break // the user moved on from the view that asked; a session kept stays for the next time
		}
		v, read := in.Open()
		md, _ := modeOf(v)
		m.pushView(md, v)
		next = read
	case view.StartIntent:
		// The UI starts afresh on the view (the picker left for good),
		// with its refresh clock and the session's watch.
		md, _ := modeOf(in.View)
		m.stack = []layer{{md: md, v: in.View}}
		next = tea.Batch(in.Cmd, tick(m.tickEvery()), m.setStatus(in.Note, false), awaitWatch(m.c.Conn.Session))
	case view.NoteIntent:
		next = m.setStatus(in.Text, in.IsErr)
	}
	return m, tea.Batch(cmd, next)
}

// isDriller reports whether v shows error groups' keys (view.Driller).
func isDriller(v view.View) bool { _, ok := v.(view.Driller); return ok }
