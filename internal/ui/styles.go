package ui

import (
	"charm.land/bubbles/v2/help"
	"charm.land/lipgloss/v2"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// styles is the UI's one set of styles, built once for the terminal's
// background (and again only if the terminal reports a different one).
type styles struct {
	title, dim, bold, label, value lipgloss.Style
	ok, warn, bad                  lipgloss.Style
	selected, changed, header      lipgloss.Style
	toggleOn, toggleOff            lipgloss.Style
	status, statusErr              lipgloss.Style
	dialog, panel                  lipgloss.Style
	bar, spark                     lipgloss.Style
	state                          map[api.State]lipgloss.Style
	help                           help.Styles
}

// newStyles builds the palette for a dark or light background. Every state
// also differs by its text, so nothing depends on colour alone (NO_COLOR).
func newStyles(isDark bool) styles {
	ld := lipgloss.LightDark(isDark)
	c := func(light, dark string) lipgloss.Style {
		return lipgloss.NewStyle().Foreground(ld(lipgloss.Color(light), lipgloss.Color(dark)))
	}
	s := styles{
		title:     c("#5A2CA0", "#B794F6").Bold(true),
		dim:       c("#8A8A8A", "#6C6C6C"),
		bold:      lipgloss.NewStyle().Bold(true),
		label:     c("#6C6C6C", "#9E9E9E"),
		value:     c("#1A1A1A", "#E4E4E4"),
		ok:        c("#1E8A3C", "#5FD787"),
		warn:      c("#B36200", "#FFAF5F"),
		bad:       c("#C0262D", "#FF5F5F").Bold(true),
		selected:  lipgloss.NewStyle().Reverse(true),
		changed:   c("#B36200", "#FFD75F").Bold(true),
		header:    c("#4A4A4A", "#BCBCBC").Bold(true).Underline(true),
		toggleOn:  lipgloss.NewStyle().Reverse(true).Bold(true),
		toggleOff: lipgloss.NewStyle(),
		status:    c("#1E8A3C", "#5FD787"),
		statusErr: c("#C0262D", "#FF5F5F").Bold(true),
		dialog: lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).Padding(0, 1).
			BorderForeground(ld(lipgloss.Color("#B36200"), lipgloss.Color("#FFAF5F"))),
		panel: lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).Padding(0, 1).
			BorderForeground(ld(lipgloss.Color("#C0262D"), lipgloss.Color("#FF5F5F"))),
		bar:   c("#B36200", "#FFAF5F"),
		spark: c("#5A2CA0", "#B794F6"),
		state: map[api.State]lipgloss.Style{
			api.StateBackoff:   c("#B36200", "#FFAF5F").Bold(true),
			api.StateScheduled: c("#1F5FA8", "#87AFFF"),
			api.StateQueued:    c("#8A6D00", "#FFD75F"),
			api.StateRunning:   c("#1E8A3C", "#5FD787"),
			api.StateFailed:    c("#C0262D", "#FF5F5F").Bold(true),
			api.StateIdle:      c("#8A8A8A", "#6C6C6C"),
		},
		help: help.DefaultStyles(isDark),
	}
	return s
}

// stateStyle is the style of a state, plain for unknown ones.
func (s *styles) stateStyle(st api.State) lipgloss.Style {
	if x, ok := s.state[st]; ok {
		return x
	}
	return lipgloss.NewStyle()
}
