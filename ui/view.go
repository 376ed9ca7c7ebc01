package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/view"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/widget"
)

// The smallest terminal the views are laid out for; below it a notice
// replaces them.
const minWidth, minHeight = 60, 12

// View renders the view shown, the footer (status and short help) and, on
// top, the confirmation.
func (m Model) View() tea.View {
	// The last line of defence: whatever path drew a name without
	// text.Printable, only SGR (colours) reaches the terminal.
	v := tea.NewView(text.PrintableStyled(m.render()))
	v.AltScreen = true
	v.WindowTitle = "kubectl backoff top"
	return v
}

func (m Model) render() string {
	w, h := m.c.Width, m.c.Height
	if w < minWidth || h < minHeight {
		return tooSmall(w, h)
	}
	body := m.viewAt(m.view()).Render()
	footer := m.footer()
	lines := strings.Split(body, "\n")
	lines = append(lines[:max(0, min(len(lines), h-len(footer)))], footer...)
	out := strings.Join(lines, "\n")
	if c := m.dialog(); c != nil {
		out = widget.Overlay(out, c.View(&m.c.Styles, w), w, h)
	}
	return out
}

// newHints is the help bubble that draws the hints line.
func newHints(c *view.Common) help.Model {
	h := help.New()
	h.Styles = c.Styles.Help
	h.ShortSeparator = " · "
	return h
}

// hintsMode is the mode whose keys the hints line shows: the mode on top,
// the dialog included. The view's keys under a dialog do nothing until it
// is answered (enter says no there): a line of them would be a stale hint.
func (m *Model) hintsMode() mode { return m.topMode() }

// footer is the status message, wrapped, over the hints line, drawn from
// the key map of the mode on top: a view's ends with "? help · q quit";
// in help, how to go back; while a filter line or a reason is typed, how
// to end it (? and q are letters there); under the dialog, its answers.
func (m Model) footer() []string {
	s := &m.c.Styles
	w := m.c.Width
	var lines []string
	if f, ok := m.viewAt(m.view()).(view.FootLiner); ok && f.FootLine() != "" {
		lines = append(lines, f.FootLine()) // the view's rows left its room
	}
	if status := m.statusShown(); status != "" {
		st := s.Status
		if m.statusErr {
			st = s.StatusErr
		}
		wrapped := text.Wrap(status, w)
		for _, l := range wrapped[:min(len(wrapped), 3)] {
			lines = append(lines, st.Render(widget.Fit(l, w)))
		}
	}
	md := m.hintsMode()
	km := m.keysOf(md)
	short := km.ShortHelp()
	k := &m.c.Keys
	if _, explains := m.viewAt(md).(view.Explainer); explains {
		var parts []string
		for _, b := range short {
			parts = append(parts, b.Help().Key+" "+b.Help().Desc)
		}
		return append(lines, s.Dim.Render(widget.Fit(strings.Join(parts, " · "), w)))
	}
	if !hasBinding(km, k.Help) {
		// ? and q are not theirs (the picker's, a filter line's, the
		// dialog's): letters, or no answer.
		return append(lines, widget.Fit(m.hints.ShortHelpView(short), w))
	}
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
