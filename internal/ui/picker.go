package ui

import (
	"fmt"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/widget"
)

// pickerLines is how many lines the picker takes above its rows: the title,
// the message, the filter and the column titles.
const pickerLines = 4

// pickerModel lists the instrumented pods discovery found when no TARGET
// named one, so the user picks the one to attach to instead of rerunning
// the command with pod/NAME.
type pickerModel struct {
	c    *common
	pods []inspector.Pod

	filter widget.Filter
	shown  []int // indexes into pods of those the filter lets through
	cursor int   // index into shown
	offset int   // first of shown on screen

	// attaching is the pod being attached to; nil when none is.
	attaching *inspector.Pod
}

func newPickerModel(c *common, pods []inspector.Pod) pickerModel {
	p := pickerModel{c: c, pods: pods, filter: widget.NewFilter(c.keys.filter(), "")}
	p.apply()
	return p
}

// rows is how many pods fit on screen.
func (p *pickerModel) rows() int { return max(1, p.c.height-pickerLines-1) }

// setSize fits the filter and the cursor to the terminal's new size.
func (p pickerModel) setSize() pickerModel {
	p.filter.SetWidth(p.c.width)
	p.clamp()
	return p
}

// selected is the pod under the cursor.
func (p *pickerModel) selected() *inspector.Pod {
	if p.cursor < 0 || p.cursor >= len(p.shown) {
		return nil
	}
	return &p.pods[p.shown[p.cursor]]
}

// apply filters the pods by the filter applied: a case-insensitive
// substring of namespace/name, or a regular expression after "~".
func (p *pickerModel) apply() {
	match := widget.FilterMatcher(p.filter.Applied)
	// A new slice: earlier copies of the model share the old one.
	shown := make([]int, 0, len(p.pods))
	for i, pod := range p.pods {
		if match(pod.String()) {
			shown = append(shown, i)
		}
	}
	p.shown, p.cursor, p.offset = shown, 0, 0
	p.c.keys.setPickFiltered(p.filter.Applied != "")
}

// clamp keeps the cursor on a shown pod and within the rows on screen.
func (p *pickerModel) clamp() {
	p.cursor, p.offset = widget.ClampRows(p.cursor, p.offset, len(p.shown), p.rows())
}

// update handles the picker's keys; enter returns the command that attaches.
func (p pickerModel) update(msg tea.KeyPressMsg) (pickerModel, tea.Cmd, intent) {
	k := p.c.keys.picker()
	switch {
	case key.Matches(msg, k.Filter):
		var cmd tea.Cmd
		p.filter, cmd = p.filter.Start()
		return p, cmd, typingIntent(true)
	case key.Matches(msg, k.ClearPick): // enabled only while a filter is applied
		p.filter.Clear()
		p.apply()
	case key.Matches(msg, k.LeavePick):
		return p, tea.Quit, nil
	case key.Matches(msg, k.Pick):
		pod := p.selected()
		if pod == nil || p.attaching != nil {
			return p, nil, nil // one attach at a time: a second would leak a session
		}
		p.attaching = pod
		return p, attachCmd(p.c.conn.ctx, p.c.opts.Attach, p.c.conn.owned, *pod), nil
	default:
		widget.ScrollBy(k.ScrollKeys, msg, &p.cursor, p.rows(), len(p.shown))
	}
	p.clamp()
	return p, nil, nil
}

// filterKey handles a key while the picker's filter line is typed: the
// pods are filtered as it is typed; enter or esc ends the typing.
func (p pickerModel) filterKey(msg tea.KeyPressMsg) (pickerModel, tea.Cmd, intent) {
	f, cmd, changed, done := p.filter.Update(msg)
	p.filter = f
	if changed {
		p.apply()
	}
	if done {
		return p, cmd, typingIntent(false)
	}
	return p, cmd, nil
}

// filterInput passes a message that is not a key (the cursor's blink) to
// the filter line being typed.
func (p pickerModel) filterInput(msg tea.Msg) (pickerModel, tea.Cmd) {
	var cmd tea.Cmd
	p.filter.Input, cmd = p.filter.Input.Update(msg)
	return p, cmd
}

// attachDone takes the picker back to idle once an attach answered: a
// failed one leaves it up to pick again.
func (p pickerModel) attachDone() pickerModel {
	p.attaching = nil
	return p
}

// view renders the picker in height-1 lines (the root adds the footer).
func (p *pickerModel) view() string {
	s := &p.c.styles
	w := p.c.width
	title := []string{s.Title.Render("backoff top")}
	if p.c.opts.Context != "" {
		title = append(title, s.Label.Render("ctx ")+p.c.opts.Context)
	}
	if p.c.conn.namespace != "" {
		title = append(title, s.Label.Render("ns ")+p.c.conn.namespace)
	}
	title = append(title, s.Bold.Render("pick a pod"))

	msg := s.Dim.Render(fmt.Sprintf("%d instrumented pods found and no TARGET: pick one to attach to", len(p.pods)))
	if p.attaching != nil {
		msg = s.Warn.Render("◌ attaching to " + p.attaching.String() + "…")
	}
	lines := []string{widget.Fit(strings.Join(title, s.Dim.Render(" · ")), w), widget.Fit(msg, w)}
	switch p.filter.State {
	case widget.Filtering:
		lines = append(lines, p.filter.View(s, w)...)
	case widget.FilterApplied:
		lines = append(lines, widget.Fit(s.Label.Render("filter ")+p.filter.Applied+s.Dim.Render(fmt.Sprintf(" · %d of %d pods", len(p.shown), len(p.pods))), w))
	default:
		lines = append(lines, "")
	}
	lines = append(lines, p.table()...)
	return strings.Join(widget.Pad(lines, p.c.height-1), "\n")
}

// table renders the column titles and the pods on screen, the selected one
// marked "›" and highlighted.
func (p *pickerModel) table() []string {
	s := &p.c.styles
	w := p.c.width
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
	if len(p.shown) == 0 {
		return append(lines, s.Dim.Render("  no pods match"))
	}
	end := min(len(p.shown), p.offset+p.rows())
	for i := p.offset; i < end; i++ {
		pod := p.pods[p.shown[i]]
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

// attached takes the picked pod's session in: the top view starts on it,
// with its refreshes and refresh clock. A failed attach leaves the picker
// up, with the error in the status line, to pick again.
func (m Model) attached(msg attachedMsg) (tea.Model, tea.Cmd) {
	if m.view() != modePicker {
		return m, nil // the owned set closes it at exit
	}
	m.picker = m.picker.attachDone()
	if msg.err != nil {
		return m, m.setStatus(widget.ErrText(msg.err), true)
	}
	m.c.conn.session, m.c.conn.objects, m.c.conn.namespace = msg.session, msg.objects, msg.pod.Namespace
	if m.c.opts.Watch {
		msg.session.Watch(m.c.conn.ctx)
	}
	m.stack = []mode{modeTop} // the picker is left for good
	return m, tea.Batch(m.top.refresh(), tick(m.tickEvery()), m.setStatus("attached to "+msg.pod.String(), false))
}
