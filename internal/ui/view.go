package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/widget"
)

// The smallest terminal the views are laid out for; below it a notice
// replaces them.
const minWidth, minHeight = 60, 12

// View renders the view shown, the footer (status and short help) and, on
// top, the confirmation.
func (m Model) View() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	v.WindowTitle = "kubectl backoff top"
	return v
}

func (m Model) render() string {
	w, h := m.c.width, m.c.height
	if w < minWidth || h < minHeight {
		return tooSmall(w, h)
	}
	body := m.viewAt(m.view()).render()
	footer := m.footer()
	lines := strings.Split(body, "\n")
	lines = append(lines[:max(0, min(len(lines), h-len(footer)))], footer...)
	out := strings.Join(lines, "\n")
	if m.confirm != nil {
		out = widget.Overlay(out, m.confirm.View(&m.c.styles, w), w, h)
	}
	return out
}

// newHints is the help bubble that draws the hints line.
func newHints(c *common) help.Model {
	h := help.New()
	h.Styles = c.styles.Help
	h.ShortSeparator = " · "
	return h
}

// hintsMode is the mode whose keys the hints line shows: the mode on top,
// the dialog included. The view's keys under a dialog do nothing until it
// is answered (enter says no there): a line of them would be a stale hint.
func (m *Model) hintsMode() mode {
	if len(m.stack) == 0 {
		return modeTop
	}
	return m.stack[len(m.stack)-1]
}

// footer is the status message, wrapped, over the hints line, drawn from
// the key map of the mode on top: a view's ends with "? help · q quit";
// in help, how to go back; while a filter line or a reason is typed, how
// to end it (? and q are letters there); under the dialog, its answers.
func (m Model) footer() []string {
	s := &m.c.styles
	w := m.c.width
	var lines []string
	if m.view() == modeTop && w < narrowWidth && m.top.selected() != nil {
		lines = append(lines, m.top.selectedLine()) // rows() left its room
	}
	if status := m.statusShown(); status != "" {
		st := s.Status
		if m.statusErr {
			st = s.StatusErr
		}
		wrapped := widget.Wrap(status, w)
		for _, l := range wrapped[:min(len(wrapped), 3)] {
			lines = append(lines, st.Render(widget.Fit(l, w)))
		}
	}
	md := m.hintsMode()
	short := m.keysOf(md).ShortHelp()
	switch md {
	case modeHelp:
		var parts []string
		for _, b := range short {
			parts = append(parts, b.Help().Key+" "+b.Help().Desc)
		}
		return append(lines, s.Dim.Render(widget.Fit(strings.Join(parts, " · "), w)))
	case modePicker, modeFilter, modeConfirm: // ? and q are not theirs: letters, or no answer
		return append(lines, widget.Fit(m.hints.ShortHelpView(short), w))
	}
	k := &m.c.keys
	end := m.hints.ShortHelpView([]key.Binding{k.Help, k.Quit})
	var rest []key.Binding
	for _, b := range short {
		if b.Help() != k.Help.Help() && b.Help() != k.Quit.Help() {
			rest = append(rest, b)
		}
	}
	h := m.hints
	sep := s.Help.ShortSeparator.Render(h.ShortSeparator)
	room := w - lipgloss.Width(end) - lipgloss.Width(sep)
	line := end
	// The help bubble's own width check leaves its ellipsis out of the
	// count: narrow it until the whole line fits.
	for hw := room; hw > 0; hw-- {
		h.SetWidth(hw)
		if start := h.ShortHelpView(rest); start != "" && lipgloss.Width(start) <= room {
			line = start + sep + end
			break
		}
	}
	return append(lines, widget.Fit(line, w))
}

// tooSmall is the notice shown instead of a layout that would not fit.
func tooSmall(w, h int) string {
	msg := []string{"terminal too small", fmt.Sprintf("%d×%d: top needs %d×%d", w, h, minWidth, minHeight), "q quits"}
	lines := make([]string, h)
	top := max(0, (h-len(msg))/2)
	for i, l := range msg {
		if top+i < h {
			lines[top+i] = widget.Fit(strings.Repeat(" ", max(0, (w-len([]rune(l)))/2))+l, w)
		}
	}
	return strings.Join(lines, "\n")
}

// columnHelp explains every column the table can show.
var columnHelp = [][2]string{
	{"STATE", "what the key is doing now (see States)"},
	{"CONTROLLER", "the controller that tracks the key (when several are shown)"},
	{"POD", "the replica that reported it (wide terminals, several replicas)"},
	{"KEY", "the work queue key: namespace/name"},
	{"FAILS", "consecutive failures, as the rate limiter counts them (0 after a forget or success; a terminal error is not counted, so a key failed by one at once shows 0)"},
	{"NEXT", "backoff/scheduled: time to the next retry in whole seconds, rounded down (<1s in the last), due once come; queued: ready; running: for how long"},
	{"DELAY", "the delay the limiter chose for the current wait"},
	{"SOURCE", "which limiter chose it: item-exponential, bucket, requeue-after, limiter (the controller's own); spread: a forget --requeue --spread released it at its slot"},
	{"TOTAL", "failures since the key was first seen (wide terminals)"},
	{"FAILING FOR", "how long the current failure streak has lasted (a forget restarts the count, not the streak)"},
	{"LAST EVENT", "time since the last watch event (an add that was not a retry)"},
	{"LAST ERROR", "the error of the last failed reconcile; ✓ before it: a reconcile has succeeded since, the error is history"},
	{"ERROR", "g view: the group's last error; … stands for the numbers, addresses, ids and quoted names its keys differ in"},
	{"WHY", "detail view: what ran the attempt — first, retry (its delay came due), event (a watch event; event! when it came before a pending retry), req-after (a RequeueAfter came due), forget (a retry now); from a log without its successes, sooner? (before its retry: an event, or a success not logged) and late? (after it: a success not logged, or no free worker)"},
}

// headerHelp explains the header's lines that do not explain themselves.
var headerHelp = [][2]string{
	{"worst of N", "\"worst of N controllers in trouble: naive — …\": N controllers have keys in trouble (backing off or failed), and the line diagnoses the worst of them (an outage or a permanent error before mere retries); the rows follow the sort instead, and when the first row is another controller's the line says so: \"(rows: longest failing first)\"; a diagnosis too long for one line takes two; tab switches to each controller in turn"},
	{"limiters", "each controller's rate limiter in brief: exp 5ms..16m40s is per-item exponential (base..cap), bucket 87/100 a token bucket's tokens left of its burst; when they do not all fit, the line takes turns, a screenful every " + widget.LimiterCycle.String() + ", and (1 of 3) says which is shown"},
}

// markHelp explains every mark.
var markHelp = [][2]string{
	{"•", "the row changed since the previous refresh"},
	{"✓", "LAST ERROR: resolved, a reconcile has succeeded since"},
	{"*", "estimated: reconstructed from logs, not recorded"},
	{"│▁▃█│", "the forecast, \"due in 60s\": how many keys fall due in each second (2s or more when narrow) of the next 60s, each at its next due time: backoff keys' retries and scheduled keys' RequeueAfter re-checks alike"},
	{"leader", "the replica that runs the controllers; standby replicas wait for the lease"},
	{"since", "a sort: the longest failure streak first"},
	{"×N ″", "detail view, Attempts: the same error N times in a row; ″ under it for each repeat"},
	{"·", "separates the items of a line"},
}
