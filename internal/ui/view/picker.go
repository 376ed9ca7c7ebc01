package view

import (
	"charm.land/bubbles/v2/help"
	"fmt"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/cluster"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/widget"
)

// pickerLines is how many lines the picker takes above its rows: the title,
// the message, the filter and the column titles.
const pickerLines = 4

// Picker lists the instrumented pods discovery found when no TARGET
// named one, so the user picks the one to attach to instead of rerunning
// the command with pod/NAME.
type Picker struct {
	C    *Common
	pods []cluster.Pod

	Filter widget.Filter
	Shown  []int // indexes into pods of those the filter lets through
	cursor int   // index into shown
	offset int   // first of shown on screen

	// Attaching is the pod being attached to; nil when none is.
	Attaching *cluster.Pod
}

// NewPicker is the picker of pods.
func NewPicker(c *Common, pods []cluster.Pod) Picker {
	p := Picker{C: c, pods: pods, Filter: widget.NewFilter(c.Keys.FilterKeys(), "")}
	p.apply()
	return p
}

// rows is how many pods fit on screen.
func (p *Picker) rows() int { return max(1, p.C.Height-pickerLines-1) }

// setSize fits the filter and the cursor to the terminal's new size.
func (p Picker) setSize() Picker {
	p.Filter.SetWidth(p.C.Width)
	p.clamp()
	return p
}

// Selected is the pod under the cursor.
func (p *Picker) Selected() *cluster.Pod {
	if p.cursor < 0 || p.cursor >= len(p.Shown) {
		return nil
	}
	return &p.pods[p.Shown[p.cursor]]
}

// apply filters the pods by the filter applied: a case-insensitive
// substring of namespace/name, or a regular expression after "~".
func (p *Picker) apply() {
	match := widget.FilterMatcher(p.Filter.Applied)
	// A new slice: earlier copies of the model share the old one.
	shown := make([]int, 0, len(p.pods))
	for i, pod := range p.pods {
		if match(pod.String()) {
			shown = append(shown, i)
		}
	}
	p.Shown, p.cursor, p.offset = shown, 0, 0
	p.C.Keys.setPickFiltered(p.Filter.Applied != "")
}

// clamp keeps the cursor on a shown pod and within the rows on screen.
func (p *Picker) clamp() {
	p.cursor, p.offset = widget.ClampRows(p.cursor, p.offset, len(p.Shown), p.rows())
}

// update handles the picker's keys; enter returns the command that attaches.
func (p Picker) update(msg tea.KeyPressMsg) (Picker, tea.Cmd, Intent) {
	k := p.C.Keys.picker()
	switch {
	case key.Matches(msg, k.Filter):
		var cmd tea.Cmd
		p.Filter, cmd = p.Filter.Start()
		return p, cmd, TypingIntent(true)
	case key.Matches(msg, k.ClearPick): // enabled only while a filter is applied
		p.Filter.Clear()
		p.apply()
	case key.Matches(msg, k.LeavePick):
		return p, tea.Quit, nil
	case key.Matches(msg, k.Pick):
		pod := p.Selected()
		if pod == nil || p.Attaching != nil {
			return p, nil, nil // one attach at a time: a second would leak a session
		}
		p.Attaching = pod
		return p, attachCmd(p.C.Conn.Ctx, p.C.Opts.Attach, p.C.Conn.Owned, *pod), nil
	default:
		widget.ScrollBy(k.ScrollKeys, msg, &p.cursor, p.rows(), len(p.Shown))
	}
	p.clamp()
	return p, nil, nil
}

// filterKey handles a key while the picker's filter line is typed: the
// pods are filtered as it is typed; enter or esc ends the typing.
func (p Picker) filterKey(msg tea.KeyPressMsg) (Picker, tea.Cmd, Intent) {
	f, cmd, changed, done := p.Filter.Update(msg)
	p.Filter = f
	if changed {
		p.apply()
	}
	if done {
		return p, cmd, TypingIntent(false)
	}
	return p, cmd, nil
}

// filterInput passes a message that is not a key (the cursor's blink) to
// the filter line being typed.
func (p Picker) filterInput(msg tea.Msg) (Picker, tea.Cmd) {
	var cmd tea.Cmd
	p.Filter.Input, cmd = p.Filter.Input.Update(msg)
	return p, cmd
}

// AttachDone takes the picker back to idle once an attach answered: a
// failed one leaves it up to pick again.
func (p Picker) AttachDone() Picker {
	p.Attaching = nil
	return p
}

// view renders the picker in height-1 lines (the root adds the footer).
func (p *Picker) view() string {
	s := &p.C.Styles
	w := p.C.Width
	title := []string{s.Title.Render("backoff top")}
	if p.C.Opts.Context != "" {
		title = append(title, s.Label.Render("ctx ")+p.C.Opts.Context)
	}
	if p.C.Conn.Namespace != "" {
		title = append(title, s.Label.Render("ns ")+p.C.Conn.Namespace)
	}
	title = append(title, s.Bold.Render("pick a pod"))

	msg := s.Dim.Render(fmt.Sprintf("%d instrumented pods found and no TARGET: pick one to attach to", len(p.pods)))
	if p.Attaching != nil {
		msg = s.Warn.Render("◌ attaching to " + p.Attaching.String() + "…")
	}
	lines := []string{widget.Fit(strings.Join(title, s.Dim.Render(" · ")), w), widget.Fit(msg, w)}
	switch p.Filter.State {
	case widget.Filtering:
		lines = append(lines, p.Filter.View(s, w)...)
	case widget.FilterApplied:
		lines = append(lines, widget.Fit(s.Label.Render("filter ")+p.Filter.Applied+s.Dim.Render(fmt.Sprintf(" · %d of %d pods", len(p.Shown), len(p.pods))), w))
	default:
		lines = append(lines, "")
	}
	lines = append(lines, p.table()...)
	return strings.Join(widget.Pad(lines, p.C.Height-1), "\n")
}

// table renders the column titles and the pods on screen, the selected one
// marked "›" and highlighted.
func (p *Picker) table() []string {
	s := &p.C.Styles
	w := p.C.Width
	nsW, podW := len("NAMESPACE"), len("POD")
	for _, pod := range p.pods {
		nsW, podW = max(nsW, len(pod.Namespace)), max(podW, len(pod.Name))
	}
	const portW, readyW = 5, 5
	nsW = min(nsW, 24)
	podW = max(10, min(podW, w-2-nsW-portW-readyW-3))
	row := func(mark, ns, pod, port, ready string) string {
		return mark + widget.Fit(ns, nsW) + " " + widget.Fit(pod, podW) + " " + widget.FitLeft(port, portW) + " " + ready
	}
	lines := []string{s.Header.Render(widget.Fit(row("  ", "NAMESPACE", "POD", "PORT", "READY"), w))}
	if len(p.Shown) == 0 {
		return append(lines, s.Dim.Render("  no pods match"))
	}
	end := min(len(p.Shown), p.offset+p.rows())
	for i := p.offset; i < end; i++ {
		pod := p.pods[p.Shown[i]]
		ready, rs := "no", s.Warn
		if pod.Ready {
			ready, rs = "yes", s.OK
		}
		if i == p.cursor {
			lines = append(lines, s.Selected.Render(widget.Fit(row("› ", pod.Namespace, pod.Name, strconv.Itoa(pod.Port), ready), w)))
			continue
		}
		lines = append(lines, widget.Fit(row("  ", pod.Namespace, pod.Name, strconv.Itoa(pod.Port), rs.Render(ready)), w))
	}
	return lines
}

// The view interface (view.go), over the typed methods above.

// The pod picker: reads nothing until a pod is attached.

// OnKey handles a key pressed while the view is on top (View).
func (p Picker) OnKey(msg tea.KeyPressMsg) (View, tea.Cmd, Intent) { return p.update(msg) }

// Render draws the view's body (View).
func (p Picker) Render() string { return p.view() }

// HintKeys is the view's key map: its hints, and what ? explains (View).
func (p Picker) HintKeys() help.KeyMap { return p.C.Keys.picker() }

// Stale reports whether the view's next read is due (View).
func (p Picker) Stale() bool { return false }

// Reload reads what the view shows again (View).
func (p Picker) Reload() (View, tea.Cmd) { return p, nil }

// ReloadNow is ctrl+r's read (View).
func (p Picker) ReloadNow() (View, tea.Cmd) { return p, nil }

// Resize lays the view out for the terminal's size (View).
func (p Picker) Resize() (View, tea.Cmd) { return p.setSize(), nil }

// OnFilterKey handles a key while the view's filter line is typed (FilterView).
func (p Picker) OnFilterKey(msg tea.KeyPressMsg) (View, tea.Cmd, Intent) {
	return p.filterKey(msg)
}

// OnFilterInput passes a message that is not a key to the filter line being typed (FilterView).
func (p Picker) OnFilterInput(msg tea.Msg) (View, tea.Cmd) { return p.filterInput(msg) }

// Receive takes the attach of the pod picked in (Receiver): the UI starts
// afresh on the table over its session, fitted to the terminal, with its
// refreshes and refresh clock (StartIntent): the picker is left for good.
// A failed attach leaves the picker up, with the error in the status
// line, to pick again.
func (p Picker) Receive(msg tea.Msg) (View, tea.Cmd, Intent, bool) {
	a, ok := msg.(AttachedMsg)
	if !ok {
		return p, nil, nil, false
	}
	p = p.AttachDone()
	if a.Err != nil {
		return p, nil, NoteIntent{Text: widget.ErrText(a.Err), IsErr: true}, true
	}
	cn := &p.C.Conn
	cn.Session, cn.Objects, cn.Namespace = a.Session, a.Objects, a.Pod.Namespace
	if p.C.Opts.Watch {
		a.Session.Watch(cn.Ctx)
	}
	v, _ := NewTop(p.C).Resize()
	t := v.(Top)
	read := t.Refresh()
	return p, nil, StartIntent{View: t, Cmd: read, Note: "attached to " + a.Pod.String()}, true
}
