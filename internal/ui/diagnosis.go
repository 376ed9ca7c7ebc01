package ui

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
)

// situationOrder ranks the situations worst first: the one the header
// names when all controllers are shown.
var situationOrder = []string{
	explain.SituationOutage, explain.SituationPermanent, explain.SituationFailing,
	explain.SituationRetrying, explain.SituationFailed, explain.SituationBusy,
	explain.SituationUnknown, explain.SituationHealthy, explain.SituationStandby,
}

// diagnosis is the one-line diagnosis the header shows — the selected
// controller's, or the worst one's when all are shown — and how many other
// controllers are in trouble too. ok is false before the first answer.
func (t *topModel) diagnosis() (d explain.ControllerDiagnosis, others int, ok bool) {
	shown := t.shown()
	if len(shown) == 0 {
		return d, 0, false
	}
	ds := make([]explain.ControllerDiagnosis, len(shown))
	trouble := make(map[string]int, len(shown))
	for i, c := range shown {
		ds[i] = explain.DiagnoseController(c, t.groups, t.overview.ServerTime)
		trouble[c.Name] = explain.InTrouble(&c)
	}
	worst := slices.MinFunc(ds, func(a, b explain.ControllerDiagnosis) int {
		return cmp.Or(
			cmp.Compare(situationRank(a.Situation), situationRank(b.Situation)),
			cmp.Compare(trouble[b.Controller], trouble[a.Controller]),
			cmp.Compare(a.Controller, b.Controller))
	})
	for _, d := range ds {
		if d.Controller != worst.Controller && trouble[d.Controller] > 0 {
			others++
		}
	}
	return worst, others, true
}

func situationRank(s string) int {
	if i := slices.Index(situationOrder, s); i >= 0 {
		return i
	}
	return len(situationOrder)
}

// sortOrder says in words how a sort order ranks the rows, for the
// diagnosis to say why its controller is not the first row's.
var sortOrder = map[string]string{
	api.SortRetrying:  "longest failing first",
	api.SortAttention: "longest failing first",
	api.SortSince:     "longest failing first",
	api.SortNext:      "soonest retry first",
	api.SortFailures:  "most failures first",
	api.SortKey:       "by key",
}

// diagnosisLines is the header's diagnosis: "outage — 100 keys backing off
// since 08:01 on …", styled by how bad it is, and, when all controllers
// are shown, how many are in trouble, it included (tab switches to them;
// help's Header section says so). The worst controller is the worst
// situation (an outage before a permanent error before retries); the rows
// follow the sort (longest failing first), so when the first row is
// another controller's, the label says the rows' rule. A diagnosis wider
// than the screen takes a second line (the cause comes after the count),
// with a shorter label first: the cut falls on the least of it.
func (t *topModel) diagnosisLines() []string {
	s := &t.c.styles
	d, others, ok := t.diagnosis()
	if !ok {
		return []string{s.label.Render("diagnosis ") + s.dim.Render("…")}
	}
	style := s.ok
	switch d.Situation {
	case explain.SituationOutage, explain.SituationPermanent, explain.SituationFailing:
		style = s.bad
	case explain.SituationRetrying, explain.SituationFailed, explain.SituationBusy, explain.SituationUnknown:
		style = s.warn
	case explain.SituationStandby:
		style = s.dim
	}
	rows := ""
	if first := t.firstRowController(); first != "" && first != d.Controller {
		rows = " (rows: " + sortOrder[sorts[t.sort]] + ")"
	}
	body := style.Render(explain.Printable(d.Controller)) + " — " + explain.Printable(d.Summary)
	// From the roomiest label to the shortest; the last one also wraps.
	labels := []string{""}
	if others > 0 {
		n := others + 1
		labels = []string{
			fmt.Sprintf("worst of %d controllers in trouble%s: ", n, rows),
			fmt.Sprintf("worst of %d in trouble%s: ", n, rows),
			fmt.Sprintf("worst of %d%s: ", n, rows),
		}
	} else if rows != "" {
		labels = []string{"worst" + rows + ": "}
	}
	w := t.c.width
	for _, l := range labels {
		if line := s.label.Render(l) + body; lipgloss.Width(line) <= w {
			return []string{line}
		}
	}
	// Two lines: the shortest label when the roomier one would push the
	// body past them (the cause comes late in it).
	label := labels[0]
	for _, l := range labels {
		label = l
		if lipgloss.Width(l)+lipgloss.Width(body) <= 2*w {
			break
		}
	}
	full := s.label.Render(label) + body
	first := wrap(full, w)[0]
	// The second line is the rest of the text, cut at the width: not the
	// wrapped lines joined again, which would put a space into a URL
	// broken at a "/".
	rest := ansi.TruncateLeft(full, ansi.StringWidth(first), "")
	for strings.HasPrefix(ansi.Strip(rest), " ") {
		rest = ansi.TruncateLeft(rest, 1, "") // the space the line broke at, styled or not
	}
	return []string{first, fit(rest, w)}
}

// firstRowController is the controller of the table's first row, when the
// table shows the top of the list of all controllers; "" otherwise.
func (t *topModel) firstRowController() string {
	if t.controller != "" || t.offset != 0 || t.page == nil || len(t.page.Items) == 0 {
		return ""
	}
	return t.page.Items[0].Controller
}
