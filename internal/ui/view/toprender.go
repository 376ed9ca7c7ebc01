package view

import (
	"strings"

	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/widget"
)

// The top view is drawn by its renderers, each its own type in its own
// file and a function of what it is handed (header.go, table.go,
// legend.go, problem.go), as k9s splits a model from its view: here Top
// hands them the read model and what is the view's own (the filter line,
// the cursor, a drill-down's group), and they read nothing else.

// Header is the header renderer of t as it stands.
func (t *Top) Header() TopHeader {
	h := t.headerFitting()
	h.Shown = t.ShownRows()
	return h
}

// headerFitting is the header without the rows drawn, which are counted
// from its height (Rows): Height reads all else it is handed.
func (t *Top) headerFitting() TopHeader {
	h := TopHeader{C: t.C, M: &t.TopModel, Filter: &t.Filter, Group: t.Group, Fleet: t.fleet()}
	if s := t.C.Conn.Session; s != nil {
		h.CapNote = s.CapNote()
		if h.CapNote != "" && t.C.Opts.Narrow != "" {
			h.CapNote += " (" + t.C.Opts.Narrow + ")"
		}
	}
	return h
}

// Table is the table renderer of t as it stands.
func (t *Top) Table() TopTable {
	return TopTable{C: t.C, M: &t.TopModel, Cursor: t.Cursor, Selected: t.Selected(), Shown: t.ShownRows(), Fleet: t.fleet()}
}

// Legend is the legend of the marks t's answer draws, for the footer.
func (t *Top) Legend() TopLegend {
	return TopLegend{Seen: t.C.SeenMarks, Changed: len(t.changed) > 0, Page: t.Page, Overview: t.Overview}
}

// view renders the whole top view in height-1 lines (the root adds the
// footer): the header, a connection problem if any, then the table.
func (t *Top) view() string {
	lines := append(t.Header().Lines(), problemPanel(t.C, &t.TopModel)...)
	lines = append(lines, t.Table().Lines()...)
	return strings.Join(widget.Pad(lines, t.C.Height-1), "\n")
}
