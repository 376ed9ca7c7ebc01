package widget

import (
	"charm.land/bubbles/v2/help"
	"charm.land/lipgloss/v2"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// Styles is the UI's one set of styles, built once for the terminal's
// background (and again only if the terminal reports a different one).
// Each field is one role (a title, dimmed text, a state's colour), named
// for what it marks, not its colour: a view picks the role, the palette the
// colour.
type Styles struct {
	Title, Dim, Bold, Label, Value lipgloss.Style
	OK, Warn, Bad                  lipgloss.Style
	Selected, Changed, Header      lipgloss.Style
	ToggleOn, ToggleOff            lipgloss.Style
	Status, StatusErr              lipgloss.Style
	Dialog, Panel                  lipgloss.Style
	Bar, Spark                     lipgloss.Style
	// State is each state's style (see StateStyle); Help, the help bubble's.
	State map[api.State]lipgloss.Style
	Help  help.Styles
}

// NewStyles builds the palette for a dark or light background. Every state
// also differs by its text, so nothing depends on colour alone (NO_COLOR).
func NewStyles(isDark bool) Styles {
	ld := lipgloss.LightDark(isDark)
	c := func(light, dark string) lipgloss.Style {
		return lipgloss.NewStyle().Foreground(ld(lipgloss.Color(light), lipgloss.Color(dark)))
	}
	s := Styles{
		Title:     c("#5A2CA0", "#B794F6").Bold(true),
		Dim:       c("#8A8A8A", "#6C6C6C"),
		Bold:      lipgloss.NewStyle().Bold(true),
		Label:     c("#6C6C6C", "#9E9E9E"),
		Value:     c("#1A1A1A", "#E4E4E4"),
		OK:        c("#1E8A3C", "#5FD787"),
		Warn:      c("#B36200", "#FFAF5F"),
		Bad:       c("#C0262D", "#FF5F5F").Bold(true),
		Selected:  lipgloss.NewStyle().Reverse(true),
		Changed:   c("#B36200", "#FFD75F").Bold(true),
		Header:    c("#4A4A4A", "#BCBCBC").Bold(true).Underline(true),
		ToggleOn:  lipgloss.NewStyle().Reverse(true).Bold(true),
		ToggleOff: lipgloss.NewStyle(),
		Status:    c("#1E8A3C", "#5FD787"),
		StatusErr: c("#C0262D", "#FF5F5F").Bold(true),
		Dialog: lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).Padding(0, 1).
			BorderForeground(ld(lipgloss.Color("#B36200"), lipgloss.Color("#FFAF5F"))),
		Panel: lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).Padding(0, 1).
			BorderForeground(ld(lipgloss.Color("#C0262D"), lipgloss.Color("#FF5F5F"))),
		Bar:   c("#B36200", "#FFAF5F"),
		Spark: c("#5A2CA0", "#B794F6"),
		State: map[api.State]lipgloss.Style{
			api.StateBackoff:   c("#B36200", "#FFAF5F").Bold(true),
			api.StateScheduled: c("#1F5FA8", "#87AFFF"),
			api.StateQueued:    c("#8A6D00", "#FFD75F"),
			api.StateRunning:   c("#1E8A3C", "#5FD787"),
			api.StateFailed:    c("#C0262D", "#FF5F5F").Bold(true),
			api.StateIdle:      c("#8A8A8A", "#6C6C6C"),
		},
		Help: help.DefaultStyles(isDark),
	}
	return s
}

// StateStyle is the style of a state, plain for unknown ones.
func (s *Styles) StateStyle(st api.State) lipgloss.Style {
	if x, ok := s.State[st]; ok {
		return x
	}
	return lipgloss.NewStyle()
}
