package ui

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// View renders the view shown, the footer (status or short help) and, on
// top, the confirmation.
func (m Model) View() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	v.WindowTitle = "kubectl backoff top"
	return v
}

func (m Model) render() string {
	var body string
	var short helpMap
	switch m.state {
	case viewDetail:
		body, short.short = m.detail.view(), m.c.keys.detailHelp()
	case viewGroups:
		body, short.short = m.groups.view(), m.c.keys.groupHelp()
	case viewHelp:
		body = m.helpView()
	case viewPicker:
		body, short.short = m.picker.view(), m.c.keys.pickerHelp(m.picker.filterState == filtering)
	default:
		body, short.short = m.top.view(), m.c.keys.topHelp()
	}
	footer := m.help.ShortHelpView(short.short)
	switch {
	case m.status != "" && m.statusErr:
		footer = m.c.styles.statusErr.Render(fit(m.status, m.c.width))
	case m.status != "":
		footer = m.c.styles.status.Render(fit(m.status, m.c.width))
	case m.state == viewHelp:
		footer = m.c.styles.dim.Render("? or esc to go back")
	}
	out := body + "\n" + fit(footer, m.c.width)
	if m.confirm != nil {
		out = overlay(out, m.confirm.view(&m.c.styles, m.c.width), m.c.width, m.c.height)
	}
	return out
}

// helpView is the full help: every key, what the states and marks mean.
func (m Model) helpView() string {
	s := &m.c.styles
	lines := []string{s.title.Render("kubectl backoff top") + s.dim.Render(" — keys"), ""}
	if m.c.readOnly {
		lines[1] = s.warn.Render("The endpoint is read-only: forget and retry are disabled.")
	}
	lines = append(lines, strings.Split(m.help.FullHelpView(m.c.keys.fullHelp()), "\n")...)
	lines = append(lines, "", s.label.Render("States"))
	desc := map[api.State]string{
		api.StateBackoff:   "failed; waiting out the rate limiter until NEXT RETRY",
		api.StateScheduled: "RequeueAfter: a planned re-check, not a failure",
		api.StateQueued:    "ready, waiting for a free worker",
		api.StateRunning:   "a reconcile is in progress",
		api.StateFailed:    "terminal error: not retried until the object changes",
		api.StateIdle:      "converged: the backoff is forgotten",
	}
	for _, st := range api.States {
		lines = append(lines, "  "+s.stateStyle(st).Render(fit(string(st), 10))+desc[st])
	}
	lines = append(lines, "", s.label.Render("Marks"),
		"  • row changed since the previous refresh",
		"  │▁▃█│ retries falling due in each of the next 60 seconds (· = beyond the sample)")
	for i := range lines {
		lines[i] = fit(lines[i], m.c.width)
	}
	return strings.Join(pad(lines, m.c.height-1), "\n")
}
