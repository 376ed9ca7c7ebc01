package view

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/widget"
)

// Help is the ? view: every key of the view it was opened over (its
// key map), then every state, column, mark and sort, scrolled with the
// same keys as the detail view.
type Help struct {
	C    *Common
	h    help.Model
	keys help.KeyMap
	// over names the view help was opened over, in its title; table says
	// it is the table, whose sections (its toggles, header, sorts) are said.
	over   string
	table  bool
	scroll int
	// diagnosis is the table's header diagnosis, whole, when the header
	// had to cut it (Top.DiagnosisWhole): help is where it says to read it.
	diagnosis string
}

// NewHelp is the ? view, not yet opened.
func NewHelp(c *Common) Help {
	h := help.New()
	h.Styles = c.Styles.Help
	h.ShortSeparator = " · "
	return Help{C: c, h: h}
}

// Open shows the help of the view named over, whose key map is keys, from
// the top; table says that view is the table.
func (m Help) Open(keys help.KeyMap, over string, table bool) Help {
	m.keys, m.over, m.table, m.scroll = keys, over, table, 0
	m.Clamp()
	return m
}

// WithDiagnosis is m showing diagnosis first, whole (none when "").
func (m Help) WithDiagnosis(diagnosis string) Help {
	m.diagnosis = diagnosis
	m.Clamp()
	return m
}

// update handles the help view's keys; the offset is clamped here.
func (m Help) update(msg tea.KeyPressMsg) (Help, tea.Cmd, Intent) {
	k := m.C.Keys.help()
	switch {
	case key.Matches(msg, k.Close):
		return m, nil, CloseHelpIntent{}
	case key.Matches(msg, k.Quit):
		return m, tea.Quit, nil
	default:
		widget.ScrollBy(k.ScrollKeys, msg, &m.scroll, m.room()-1, len(m.Lines()))
	}
	m.Clamp()
	return m, nil, nil
}

func (m *Help) room() int { return m.C.bodyHeight() }

// Clamp keeps the scroll offset within the help.
func (m *Help) Clamp() { m.scroll = widget.ClampText(m.scroll, len(m.Lines()), m.room()) }

// setSize fits the help to the terminal's new size.
func (m Help) setSize() Help {
	m.h.SetWidth(m.C.Width)
	m.Clamp()
	return m
}

// view renders the help in height-1 lines.
func (m *Help) view() string {
	return strings.Join(widget.Pad(widget.ScrolledText(m.Lines(), m.scroll, m.room(), &m.C.Styles), m.C.Height-1), "\n")
}

// Lines is the whole help, fitted to the width.
func (m *Help) Lines() []string {
	s := &m.C.Styles
	w := m.C.Width
	table := m.table
	lines := []string{s.Title.Render("kubectl backoff top") + s.Dim.Render(" — "+m.over), ""}
	if m.C.readOnly {
		// Why, and what to do instead: a log, a snapshot, a read-only endpoint.
		lines = lines[:1]
		for _, l := range text.Wrap(m.C.refusal(false, ""), w) {
			lines = append(lines, s.Warn.Render(l))
		}
		if m.C.Snapshot() {
			for _, l := range text.Wrap(m.C.StillText(), w) {
				lines = append(lines, s.Warn.Render(l))
			}
		}
		lines = append(lines, "")
	}
	if m.diagnosis != "" {
		lines = append(lines, s.Label.Render("Diagnosis")+s.Dim.Render(" (the header's, whole)"))
		lines = append(lines, text.WrapIndent("  "+m.diagnosis, w, 2)...)
		lines = append(lines, "")
	}
	lines = append(lines, m.bindings()...)
	lines = append(lines, "")
	toggles := m.C.ToggleStates()
	states := "States"
	if table {
		// The toggles are the table's: elsewhere the states are only named.
		states += " (" + stateKeyHelp(len(toggles)) + " shows only the states toggled on; none on shows all; a header too narrow for all counts shows the states with keys)"
	}
	for i, l := range text.Wrap(states, w) {
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
		rows := text.WrapIndent("  "+num+name+StateHelp[st], w, indent)
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
			lines = append(lines, text.WrapIndent("  "+widget.Fit(c[0], 12)+c[1], w, 14)...)
		}
	}
	if table {
		lines = append(lines, "", s.Label.Render("Sorts")+s.Dim.Render(" (s cycles)"))
		for _, o := range Sorts {
			lines = append(lines, text.WrapIndent("  "+SortHelp[o], w, 4)...)
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
func (m *Help) bindings() []string {
	if m.keys == nil {
		return nil
	}
	groups := m.keys.FullHelp()
	// The palette as it is now: the terminal's background may have been
	// learnt after the view opened.
	m.h.Styles = m.C.Styles.Help
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
				fits = fits && lipgloss.Width(l) <= m.C.Width
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

// The view interface (view.go), over the typed methods above.

// Help: reads nothing.

// OnKey handles a key pressed while the view is on top (View).
func (m Help) OnKey(msg tea.KeyPressMsg) (View, tea.Cmd, Intent) { return m.update(msg) }

// Render draws the view's body (View).
func (m Help) Render() string { return m.view() }

// HintKeys is the view's key map: its hints, and what ? explains (View).
func (m Help) HintKeys() help.KeyMap { return m.C.Keys.help() }

// Stale reports whether the view's next read is due (View).
func (m Help) Stale() bool { return false }

// Reload reads what the view shows again (View).
func (m Help) Reload() (View, tea.Cmd) { return m, nil }

// ReloadNow is ctrl+r's read (View).
func (m Help) ReloadNow() (View, tea.Cmd) { return m, nil }

// Resize lays the view out for the terminal's size (View).
func (m Help) Resize() (View, tea.Cmd) { return m.setSize(), nil }

// Explains marks the ? view as about the view under it (Explainer).
func (m Help) Explains() {}

// Clamped keeps the scroll within the room left (Clamper).
func (m Help) Clamped() View { m.Clamp(); return m }

// OpenHelp opens the ? view over under (the view shown), explaining keys,
// its key map, titled title: the root's for ?, which every view shares.
// Over the table, the help says its toggles, header and sorts too; a
// view with something to say first (HelpLead) says it.
func OpenHelp(c *Common, keys help.KeyMap, title string, under View) OpenIntent {
	v, _ := NewHelp(c).Resize() // fitted to the terminal, as every view is
	_, table := keys.(TopKeys)
	h := v.(Help).Open(keys, title, table)
	if l, ok := under.(HelpLead); ok {
		h = h.WithDiagnosis(l.HelpLead())
	}
	return OpenIntent{View: h}
}
