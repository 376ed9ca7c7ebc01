package view

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/widget"
)

// situationOrder ranks the situations worst first: the one the header
// names when all controllers are shown.
var situationOrder = []string{
	explain.SituationOutage, explain.SituationPermanent, explain.SituationFailing,
	explain.SituationRetrying, explain.SituationFailed, explain.SituationBusy,
	explain.SituationUnknown, explain.SituationHealthy, explain.SituationStandby,
}

// Diagnosis is the one-line diagnosis the header shows — the selected
// controller's, or the worst one's when all are shown — and how many other
// controllers are in trouble too. ok is false before the first answer.
func (t *TopModel) Diagnosis() (d explain.ControllerDiagnosis, others int, ok bool) {
	shown := t.shown()
	if len(shown) == 0 {
		return d, 0, false
	}
	ds := make([]explain.ControllerDiagnosis, len(shown))
	trouble := make(map[string]int, len(shown))
	for i, c := range shown {
		ds[i] = explain.DiagnoseController(c, t.Overview.Source, t.Groups, t.Overview.ServerTime)
		trouble[c.Name] = explain.InTrouble(&c)
	}
	worst := slices.MinFunc(ds, func(a, b explain.ControllerDiagnosis) int {
		return cmp.Or(
			cmp.Compare(SituationRank(a.Situation), SituationRank(b.Situation)),
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

// SituationRank is s's place in situationOrder, worst first.
func SituationRank(s string) int {
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

// DiagnosisLines is the header's diagnosis: "outage — 100 keys backing off
// since 08:01 on …", styled by how bad it is, and, when all controllers
// are shown, how many are in trouble, it included (tab switches to them;
// help's Header section says so). The worst controller is the worst
// situation (an outage before a permanent error before retries); the rows
// follow the sort (longest failing first), so when the first row is
// another controller's, the label says the rows' rule. A diagnosis wider
// than the screen takes a second line (the cause comes after the count),
// with a shorter label first, whole when two lines hold it. When they do
// not, the quoted error gives up its middle, as little as makes the rest
// fit, or its end when it ends the sentence (the error is whole in the
// error groups, g); and when even that is not enough, the second line ends
// with "…" and says that help (?) shows the diagnosis whole
// (DiagnosisWhole).
func (h TopHeader) DiagnosisLines() []string {
	s := &h.C.Styles
	d, others, ok := h.M.Diagnosis()
	if !ok {
		// "…" is a read under way; an answer with no controller (an empty
		// log, an endpoint before its first key) says so, or it reads as
		// a load that never ends.
		if h.M.Overview != nil {
			return []string{s.Label.Render("diagnosis ") + s.Dim.Render(noControllerYet)}
		}
		return []string{s.Label.Render("diagnosis ") + s.Dim.Render("…")}
	}
	style := s.OK
	switch d.Situation {
	case explain.SituationOutage, explain.SituationPermanent, explain.SituationFailing:
		style = s.Bad
	case explain.SituationRetrying, explain.SituationFailed, explain.SituationBusy, explain.SituationUnknown:
		style = s.Warn
	case explain.SituationStandby:
		style = s.Dim
	}
	rows := ""
	if first := h.M.firstRowController(); first != "" && first != d.Controller {
		rows = " (rows: " + sortOrder[Sorts[h.M.Sort]] + ")"
	}
	body := func(summary string) string {
		return style.Render(text.Printable(explain.ControllerWords(d.Controller))) + " — " + text.Printable(summary)
	}
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
	w := h.C.Width
	whole := body(d.Summary)
	for _, l := range labels {
		if line := s.Label.Render(l) + whole; lipgloss.Width(line) <= w {
			return []string{line}
		}
	}
	// Two lines hold it whole with the roomiest label that lets them,
	// broken at a space or, when a word wrap moves a URL whole to the
	// second line, after one of its "/" (as a wrap breaks a word wider than
	// its line): it was cut for two cells at 160 columns.
	for _, l := range labels {
		full := s.Label.Render(l) + whole
		if first, rest := twoLines(full, w); lipgloss.Width(rest) <= w {
			return []string{first, widget.Fit(rest, w)}
		}
		if first, rest, ok := twoLinesInURL(full, w); ok {
			return []string{first, widget.Fit(rest, w)}
		}
	}
	// Two lines: the shortest label when the roomier one would push the
	// body past them (the cause comes late in it).
	label := labels[0]
	for _, l := range labels {
		label = l
		if lipgloss.Width(l)+lipgloss.Width(whole) <= 2*w {
			break
		}
	}
	label = s.Label.Render(label)
	if q := d.Quoted; q != "" && strings.Contains(d.Summary, q) {
		n := len([]rune(q))
		if !strings.HasSuffix(d.Summary, q) {
			// The quoted error gives up its middle: from the least cut
			// that could do (what overflows the two lines) on, until the
			// rest fits (a wrap at spaces leaves a few cells unused).
			over := lipgloss.Width(label+whole) - 2*w
			for keep := min(n-1, n-over-1); keep >= minQuoted; keep-- {
				cut := strings.Replace(d.Summary, q, text.OneLineAtBreaks(q, keep), 1)
				if first, rest := twoLines(label+body(cut), w); lipgloss.Width(rest) <= w {
					return []string{first, widget.Fit(rest, w)}
				}
			}
		} else if _, rest := twoLines(label+body(strings.TrimSuffix(d.Summary, q)+string([]rune(q)[:min(n, minQuotedEnd)])), w); lipgloss.Width(rest) < w {
			// The error ends the sentence: it alone gives up its end, as a
			// table's cell does (it is whole in the error groups, g).
			first, rest := twoLines(label+whole, w)
			return []string{first, ansi.Truncate(rest, w, "…")}
		}
	}
	// The sentence itself is cut: say where it is whole.
	first, rest := twoLines(label+whole, w)
	more := s.Dim.Render(moreInHelp)
	return []string{first, ansi.Truncate(rest, w-lipgloss.Width(more), "…") + more}
}

// minQuoted is the least of a quoted error the header keeps, in runes:
// below it the error says nothing, and the sentence is cut at its end.
const minQuoted = 16

// minQuotedEnd is the least of an error that ends the sentence the header
// keeps before "…": its first word or so, the rest of the sentence whole.
const minQuotedEnd = 4

// moreInHelp ends a diagnosis two lines cannot hold: where it is whole.
const moreInHelp = " ? shows it whole"

// twoLines is the header's full line wrapped to w: its first line, and the
// rest of the text, which fits a second line when it is at most w wide.
// The rest is cut from full, not the wrapped lines joined again, which
// would put a space into a URL broken at a "/".
func twoLines(full string, w int) (first, rest string) {
	first = text.Wrap(full, w)[0]
	rest = ansi.TruncateLeft(full, ansi.StringWidth(first), "")
	for strings.HasPrefix(ansi.Strip(rest), " ") {
		rest = ansi.TruncateLeft(rest, 1, "") // the space the line broke at, styled or not
	}
	return first, rest
}

// twoLinesInURL is full on two lines of w cells, the first broken after
// the last "/" of a URL that fits (not between the two of "//"; never in
// "10/s"), when the rest then fits the second; ok is false otherwise.
func twoLinesInURL(full string, w int) (first, rest string, ok bool) {
	plain := ansi.Strip(full)
	head := ansi.Truncate(plain, w, "")
	k := strings.LastIndex(head, "/")
	for k >= 0 && (k+1 < len(plain) && plain[k+1] == '/' || !inURL(plain, k)) {
		k = strings.LastIndex(head[:k], "/")
	}
	if k < 0 {
		return "", "", false
	}
	n := ansi.StringWidth(plain[:k+1])
	first, rest = ansi.Truncate(full, n, ""), ansi.TruncateLeft(full, n, "")
	return first, rest, lipgloss.Width(rest) <= w
}

// inURL reports whether s[i] is inside a URL: a word holding "://".
func inURL(s string, i int) bool {
	start := strings.LastIndexByte(s[:i], ' ') + 1
	end := strings.IndexByte(s[i:], ' ')
	if end < 0 {
		end = len(s) - i
	}
	return strings.Contains(s[start:i+end], "://")
}

// DiagnosisWhole is the header's diagnosis uncut and unstyled when the
// header cuts it at its end, for help to show; "" when the header shows it
// whole (its quoted error cut in the middle at most) or has none yet.
func (h TopHeader) DiagnosisWhole() string {
	d, _, ok := h.M.Diagnosis()
	if lines := h.DiagnosisLines(); !ok || !strings.HasSuffix(ansi.Strip(lines[len(lines)-1]), moreInHelp) {
		return ""
	}
	return text.Printable(d.Line())
}

// firstRowController is the controller of the table's first row, when the
// table shows the top of the list of all controllers; "" otherwise.
func (t *TopModel) firstRowController() string {
	if t.Controller != "" || t.Offset != 0 || t.Page == nil || len(t.Page.Items) == 0 {
		return ""
	}
	return t.Page.Items[0].Controller
}

// noControllerYet is the diagnosis of an answer that holds no controller:
// a log with no line of one read yet, an endpoint whose controllers have
// not started.
const noControllerYet = "none yet: no controller has reported (a log: no reconcile line of one read so far)"
