package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// failingStates are the states the incident view groups.
var failingStates = []api.State{api.StateBackoff, api.StateFailed}

// groupModel is the incident view: failing keys grouped by the fingerprint
// of their last error, largest group first. It reads a bounded sample, only
// when opened or refreshed by hand.
type groupModel struct {
	c *common

	query   inspector.KeyQuery
	groups  []errorGroup
	sampled int
	matched int
	err     error
	loading bool
	cursor  int
	offset  int
}

// open samples the failing keys of the top view's controller and filter.
func (g groupModel) open(t *topModel) (groupModel, tea.Cmd) {
	states := failingStates
	if sel := t.stateList(); len(sel) > 0 {
		states = sel
	}
	g = groupModel{c: g.c, query: inspector.KeyQuery{Controller: t.controller, Q: t.applied, States: states, Sort: api.SortNext, Limit: groupSample}}
	return g, g.refresh()
}

func (g *groupModel) refresh() tea.Cmd {
	g.loading = true
	return groupsCmd(g.c.opts.ctx, g.c.opts.Session, g.query)
}

func (g groupModel) received(msg groupsFetchedMsg) groupModel {
	g.loading = false
	g.err = msg.err
	if msg.err == nil {
		g.groups, g.sampled, g.matched = msg.groups, msg.sampled, msg.matched
		g.cursor = max(0, min(g.cursor, len(g.groups)-1))
	}
	return g
}

func (g *groupModel) rows() int { return max(1, g.c.height-4) }

func (g groupModel) update(msg tea.KeyPressMsg) (groupModel, tea.Cmd) {
	k := g.c.keys
	switch {
	case key.Matches(msg, k.Up):
		g.cursor = max(0, g.cursor-1)
	case key.Matches(msg, k.Down):
		g.cursor = min(len(g.groups)-1, g.cursor+1)
	case key.Matches(msg, k.PageUp):
		g.cursor = max(0, g.cursor-g.rows())
	case key.Matches(msg, k.PageDown):
		g.cursor = min(len(g.groups)-1, g.cursor+g.rows())
	case key.Matches(msg, k.Home):
		g.cursor = 0
	case key.Matches(msg, k.End):
		g.cursor = len(g.groups) - 1
	}
	g.cursor = max(0, g.cursor)
	if g.cursor < g.offset {
		g.offset = g.cursor
	}
	if g.cursor >= g.offset+g.rows() {
		g.offset = g.cursor - g.rows() + 1
	}
	return g, nil
}

// selected is the group under the cursor.
func (g *groupModel) selected() *errorGroup {
	if g.cursor < 0 || g.cursor >= len(g.groups) {
		return nil
	}
	return &g.groups[g.cursor]
}

// view renders the incident view in height-1 lines.
func (g *groupModel) view() string {
	s := &g.c.styles
	w := g.c.width
	states := make([]string, len(g.query.States))
	for i, st := range g.query.States {
		states[i] = string(st)
	}
	scope := "all controllers"
	if g.query.Controller != "" {
		scope = g.query.Controller
	}
	if g.query.Q != "" {
		scope += ", filter " + g.query.Q
	}
	summary := fmt.Sprintf("%d distinct errors among %s keys (%s; %s)", len(g.groups), thousands(g.matched), strings.Join(states, ","), scope)
	if g.sampled < g.matched {
		summary = fmt.Sprintf("%d distinct errors in a sample of %s of %s keys (%s; %s); counts are of the sample",
			len(g.groups), thousands(g.sampled), thousands(g.matched), strings.Join(states, ","), scope)
	}
	lines := []string{
		fit(s.title.Render("backoff")+s.dim.Render(" › ")+s.bold.Render("keys grouped by error"), w),
		fit(summary, w),
	}
	switch {
	case g.err != nil:
		lines = append(lines, s.bad.Render(fit("✗ "+oneLine(g.err.Error()), w)))
	case g.loading:
		lines = append(lines, s.dim.Render("sampling…"))
	default:
		lines = append(lines, "")
	}
	ctlW := 14
	lines = append(lines, s.header.Render(fit(fmt.Sprintf("  %9s %-*s %s", "KEYS", ctlW, "CONTROLLER", "ERROR (numbers, addresses, ids and quoted names folded to …)"), w)))
	end := min(len(g.groups), g.offset+g.rows())
	for i := g.offset; i < end; i++ {
		gr := &g.groups[i]
		ctl := gr.controllers[0].name
		if len(gr.controllers) > 1 {
			ctl = fmt.Sprintf("%s +%d", ctl, len(gr.controllers)-1)
		}
		unit := "keys"
		if gr.count == 1 {
			unit = "key "
		}
		row := fmt.Sprintf("  %4s %s %s %s", thousands(gr.count), unit, fit(ctl, ctlW), oneLine(gr.fingerprint))
		if i == g.cursor {
			lines = append(lines, s.selected.Render(fit(row, w)))
			continue
		}
		lines = append(lines, fit(row, w))
	}
	if len(g.groups) == 0 && !g.loading && g.err == nil {
		lines = append(lines, s.dim.Render("  no failing keys"))
	}
	return strings.Join(pad(lines, g.c.height-1), "\n")
}
