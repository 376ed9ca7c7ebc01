package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/widget"
)

// helpModel is the ? view: every key of the view it was opened over (its
// key map), then every state, column, mark and sort, scrolled with the
// same keys as the detail view.
type helpModel struct {
	c    *common
	h    help.Model
	keys help.KeyMap
	// over is the view help was opened over: its title, and which of the
	// table's sections (its toggles, header, sorts) are said.
	over   mode
	scroll int
}

func newHelpModel(c *common) helpModel {
	h := help.New()
	h.Styles = c.styles.Help
	h.ShortSeparator = " · "
	return helpModel{c: c, h: h}
}

// open shows the help of view, whose key map is keys, from the top.
func (m helpModel) open(keys help.KeyMap, view mode) helpModel {
	m.keys, m.over, m.scroll = keys, view, 0
	m.clamp()
	return m
}

// setStyles takes the palette in, once the terminal's background is known.
func (m helpModel) setStyles(st help.Styles) helpModel {
	m.h.Styles = st
	return m
}

// update handles the help view's keys; the offset is clamped here.
func (m helpModel) update(msg tea.KeyPressMsg) (helpModel, tea.Cmd, intent) {
	k := m.c.keys.help()
	switch {
	case key.Matches(msg, k.Close):
		return m, nil, closeHelpIntent{}
	case key.Matches(msg, k.Quit):
		return m, tea.Quit, nil
	default:
		widget.ScrollBy(k.ScrollKeys, msg, &m.scroll, m.room()-1, len(m.lines()))
	}
	m.clamp()
	return m, nil, nil
}

func (m *helpModel) room() int { return m.c.bodyHeight() }

// clamp keeps the scroll offset within the help.
func (m *helpModel) clamp() { m.scroll = widget.ClampText(m.scroll, len(m.lines()), m.room()) }

// setSize fits the help to the terminal's new size.
func (m helpModel) setSize() helpModel {
	m.h.SetWidth(m.c.width)
	m.clamp()
	return m
}

// view renders the help in height-1 lines.
func (m *helpModel) view() string {
	return strings.Join(widget.Pad(widget.ScrolledText(m.lines(), m.scroll, m.room(), &m.c.styles), m.c.height-1), "\n")
}

// lines is the whole help, fitted to the width.
func (m *helpModel) lines() []string {
	s := &m.c.styles
	w := m.c.width
	table := m.over == modeTop
	lines := []string{s.Title.Render("kubectl backoff top") + s.Dim.Render(" — "+helpTitles[m.over]), ""}
	if m.c.readOnly {
		// Why, and what to do instead: a log, a snapshot, a read-only endpoint.
		lines = lines[:1]
		for _, l := range widget.Wrap(m.c.refusal(false, ""), w) {
			lines = append(lines, s.Warn.Render(l))
		}
		if m.c.snapshot() {
			for _, l := range widget.Wrap(m.c.stillText(), w) {
				lines = append(lines, s.Warn.Render(l))
			}
		}
		lines = append(lines, "")
	}
	lines = append(lines, m.bindings()...)
	lines = append(lines, "")
	toggles := m.c.toggleStates()
	states := "States"
	if table {
		// The toggles are the table's: elsewhere the states are only named.
		states += " (" + stateKeyHelp(len(toggles)) + " shows only the states toggled on; none on shows all; a header too narrow for all counts shows the states with keys)"
	}
	for i, l := range widget.Wrap(states, w) {
		if rest, ok := strings.CutPrefix(l, "States"); ok && i == 0 {
			l = s.Label.Render("States") + s.Dim.Render(rest)
		} else {
			l = s.Dim.Render(l)
		}
		lines = append(lines, l)
	}
	for i, st := range toggles {
		// Wrapped plain, then the state's name styled: a style's codes
		// would be counted in the wrap.
		name := widget.Fit(string(st), 10)
		num, indent := fmt.Sprintf("%d ", i+1), 14
		if !table {
			num, indent = "", 12
		}
		rows := widget.WrapIndent("  "+num+name+stateHelp[st], w, indent)
		if rest, ok := strings.CutPrefix(rows[0], "  "+num+name); ok {
			rows[0] = "  " + num + s.StateStyle(st).Render(name) + rest
		}
		lines = append(lines, rows...)
	}
	type section struct {
		title string
		rows  [][2]string
	}
	secs := []section{{"Columns", columnHelp}, {"Marks", markHelp}}
	if table {
		secs = append([]section{{"Header", headerHelp}}, secs...)
	}
	for _, sec := range secs {
		lines = append(lines, "", s.Label.Render(sec.title))
		for _, c := range sec.rows {
			lines = append(lines, widget.WrapIndent("  "+widget.Fit(c[0], 12)+c[1], w, 14)...)
		}
	}
	if table {
		lines = append(lines, "", s.Label.Render("Sorts")+s.Dim.Render(" (s cycles)"))
		for _, o := range sorts {
			lines = append(lines, widget.WrapIndent("  "+sortHelp[o], w, 4)...)
		}
	}
	for i := range lines {
		lines[i] = widget.Fit(lines[i], w)
	}
	return lines
}

// bindings is every key binding of the view help was opened over, in as
// many columns as fit the width: the columns that do not fit go below the
// others, none is cut.
func (m *helpModel) bindings() []string {
	if m.keys == nil {
		return nil
	}
	groups := m.keys.FullHelp()
	wide := m.h
	wide.SetWidth(0) // measured uncut
	for n := len(groups); n > 1; n-- {
		var out []string
		fits := true
		for i := 0; i < len(groups); i += n {
			if i > 0 {
				out = append(out, "")
			}
			for _, l := range strings.Split(wide.FullHelpView(groups[i:min(i+n, len(groups))]), "\n") {
				fits = fits && lipgloss.Width(l) <= m.c.width
				out = append(out, l)
			}
		}
		if fits {
			return out
		}
	}
	var out []string
	for i, g := range groups {
		if i > 0 {
			out = append(out, "")
		}
		out = append(out, strings.Split(m.h.FullHelpView([][]key.Binding{g}), "\n")...)
	}
	return out
}

// helpTitles name the view help was opened over, in its title.
var helpTitles = map[mode]string{
	modeTop:    "keys",
	modeDetail: "a key's detail",
	modeGroups: "error groups",
	modeFor:    "top --for",
}

// stateHelp says what each state means.
var stateHelp = map[api.State]string{
	api.StateBackoff:   "errored; retried at NEXT RETRY, after the rate limiter's delay or its forget --spread slot",
	api.StateScheduled: "RequeueAfter: a planned re-check, not a failure",
	api.StateQueued:    "ready, waiting for a free worker",
	api.StateRunning:   "a reconcile is in progress",
	api.StateFailed:    "terminal error: not retried until the object changes",
	api.StateIdle:      "the last reconcile succeeded and nothing is pending: only a change to the object or a resync runs it again",
	api.StateUnknown:   "log only: a retry or re-check was due and nothing about the key was logged since; it may have succeeded (at the default verbosity successes are not logged)",
}
