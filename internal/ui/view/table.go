package view

import (
	"cmp"
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/widget"
)

// column is one table column: its title, width, alignment and cell text.
// A name column (key, pod) is cut in the middle: the ends tell rows apart.
// A message column (the last error) is cut in the middle too, keeping
// more of its end, as `get` cuts it: a wrapped error names its cause last
// ("sync with…503 Service Unavailable").
type column struct {
	title   string
	width   int
	right   bool
	name    bool
	message bool
	cell    func(r *explain.KeyRow) string
	// short is the title when the column's values are narrower than
	// title ("CTRL" for CONTROLLER), so that the title does not hold the
	// column wider than its values.
	short string
}

// TopTable draws the table of keys: its title row and one row per key of
// the page, the selected one highlighted, changed ones marked "•" and
// estimated ones "*", and the selected key's line a narrow table leaves to
// the footer. It is a function of what it is handed, the k9s way: the read
// model's answer (the page, the rows changed, whether the endpoint is
// silent), the cursor, the rows that fit and whether the view spans a
// fleet; it reads no view and changes nothing.
type TopTable struct {
	C *Common
	// M is the read model: the page, its changed rows, the overview.
	M *TopModel
	// Cursor is the row the cursor is on; Selected its key (nil: none).
	Cursor   int
	Selected *inspector.PodKey
	// Shown is how many rows of the page are drawn (Top.ShownRows).
	Shown int
	// Fleet says the view spans several workloads: which pod a key is on
	// is a column at any width.
	Fleet bool
}

// wideWidth is the terminal width from which the -o wide columns show.
const wideWidth = 160

// NarrowWidth is the width under which the table narrows its columns and
// the selected row's key and error show whole on a line under it.
const NarrowWidth = 72

// columns lays the table out for the terminal width and the page's rows:
// the other columns first, each as wide as its widest value, then the key
// and the last error share what is left. Narrow terminals drop SOURCE,
// then CONTROLLER when only one controller is shown. From 110 columns
// SOURCE shows, unless it would leave a key cut and its error in a dozen
// cells (real keys run to 40 cells and more): the detail says the source,
// and a row without its key or error says nothing.
func (tb TopTable) columns(rows []explain.KeyRow) []column {
	cols := tb.layout(tb.C.Width >= 110, rows)
	if tb.C.Width < 110 {
		return cols
	}
	for _, c := range cols {
		if c.title == "SOURCE" && tb.cramped(cols) {
			return tb.layout(false, rows)
		}
	}
	return cols
}

// cramped says whether the KEY column cuts a key of the page while the
// error has fewer than errRoomWide cells.
func (tb TopTable) cramped(cols []column) bool {
	const errRoomWide = 24
	var keyW, errW int
	for _, c := range cols {
		switch {
		case c.title == "LAST ERROR" || c.title == "ERROR":
			errW = c.width
		case strings.HasPrefix(c.title, "KEY"):
			keyW = c.width
		}
	}
	if errW >= errRoomWide || tb.M.Page == nil {
		return false
	}
	for _, k := range tb.M.Page.Items {
		if keyCells(k.Key.Key) > keyW {
			return true
		}
	}
	return false
}

// layout is columns with or without SOURCE.
func (tb TopTable) layout(source bool, rows []explain.KeyRow) []column {
	w := tb.C.Width
	multiPod := tb.M.Overview != nil && len(tb.M.Overview.Replicas) > 1
	// CONTROLLER as wide as its widest name where the terminal has room
	// (k9s' columns take what they need): "replicaset-controller" was cut
	// to 20 cells at 160 columns. At most a fifth of the width, so that KEY
	// keeps its room; LAST ERROR gets it back below (giveBack).
	ctlW := 10
	if tb.M.Overview != nil && w >= 100 {
		for _, c := range tb.M.Overview.Controllers {
			ctlW = max(ctlW, min(len(c.Name), max(ctlCut, w/5)))
		}
	}
	// Under 72 columns every column but KEY and LAST ERROR leaves them too
	// little: DELAY goes (NEXT says when), STATE, NEXT and CONTROLLER
	// narrow (sched, run: the counts line's names), and KEY may narrow to
	// 12, its middle cut keeping the object's number.
	narrow := w < NarrowWidth
	next := column{title: "NEXT RETRY", short: "NEXT", width: 10, right: true}
	switch {
	case narrow:
		next.title, next.width = "NEXT", 7 // "16m40s", "ready", a running key's "for <1s"
	case w < 100:
		next.title, next.width = "NEXT", 8
	}
	next.cell = nextRetryCell(next.width)
	state := column{title: "STATE", width: 9, cell: func(r *explain.KeyRow) string { return r.State }}
	if narrow {
		state.width, state.cell = 7, func(r *explain.KeyRow) string { return cmp.Or(ShortStates[api.State(r.State)], r.State) }
		ctlW = 9
	}
	cols := []column{state}
	if tb.M.Controller == "" && (w >= 100 || len(tb.M.shown()) > 1) {
		title := "CONTROLLER"
		if ctlW < len(title) {
			title = "CTRL" // not "CONTROLL…"
		}
		cols = append(cols, column{title: title, short: "CTRL", width: ctlW, cell: func(r *explain.KeyRow) string { return r.Controller }})
	}
	switch {
	case tb.Fleet:
		// Several workloads: which pod (and so which controller deployment)
		// a key is on matters at any width.
		cols = append(cols, column{title: "NAMESPACE/POD", width: min(24, max(14, w/5)), name: true, cell: func(r *explain.KeyRow) string { return r.Pod }})
	case multiPod && w >= wideWidth:
		cols = append(cols, column{title: "POD", width: 24, name: true, cell: func(r *explain.KeyRow) string { return r.Pod }})
	}
	keyCol := len(cols)
	cols = append(cols,
		column{title: "KEY", name: true, cell: func(r *explain.KeyRow) string { return r.Key }},
		column{title: "FAILS", width: 5, right: true, cell: func(r *explain.KeyRow) string { return r.Failures }},
		next,
	)
	if (!tb.Fleet || w >= 100) && !narrow {
		// A narrow fleet gives DELAY's room to NAMESPACE/POD: NEXT says when.
		cols = append(cols, column{title: "DELAY", width: 7, right: true, cell: func(r *explain.KeyRow) string { return r.Delay }})
	}
	if source {
		cols = append(cols, column{title: "SOURCE", width: 16, cell: func(r *explain.KeyRow) string { return r.Source }})
	}
	if w >= wideWidth {
		cols = append(cols,
			column{title: "TOTAL", width: 6, right: true, cell: func(r *explain.KeyRow) string { return r.Total }},
			column{title: "FAILING FOR", width: 11, right: true, cell: func(r *explain.KeyRow) string { return r.FailingFor }},
			column{title: "LAST CHANGE", width: 11, right: true, cell: func(r *explain.KeyRow) string { return r.LastEvent }},
		)
	}
	fitValues(cols, rows)
	errCol := len(cols)
	cols = append(cols, column{title: "LAST ERROR", message: true, cell: func(r *explain.KeyRow) string { return r.Error(0) }})
	used := 2 // the change mark and its space
	for _, c := range cols {
		used += c.width + 1
	}
	minKey := 16
	if narrow {
		minKey = 12
	}
	flex := max(w-used, minKey+8)
	keyW := minKey
	if tb.M.Page != nil {
		for _, k := range tb.M.Page.Items {
			keyW = max(keyW, keyCells(k.Key.Key))
		}
	}
	errRoom, minErr := 12, 8
	if narrow {
		// The key whole first: the selected row's error shows in full
		// below. The error, not the key, gave NEXT its seventh cell.
		errRoom, minErr = 7, 7
	}
	if ns := tb.sharedNamespace(); ns != "" && keyW > max(minKey, flex*45/100, flex-errRoom) {
		// Every row's key in one namespace, and the keys cut: the namespace
		// once in the title gives the names their room.
		cols[keyCol].title = "KEY (" + ns + "/)"
		cols[keyCol].cell = func(r *explain.KeyRow) string { return strings.TrimPrefix(r.Key, ns+"/") }
		keyW -= len(ns) + 1
	}
	cols[keyCol].width = min(keyW, max(minKey, flex*45/100, flex-errRoom))
	cols[errCol].width = max(flex-cols[keyCol].width, minErr)
	giveBack(cols, errCol, w)
	if cols[errCol].width < len(cols[errCol].title) {
		cols[errCol].title = "ERROR" // not "LAST ER…"
	}
	return cols
}

// ctlCut is the fewest cells CONTROLLER narrows to for LAST ERROR.
const ctlCut = 20

// giveBack narrows CONTROLLER, down to ctlCut cells, when LAST ERROR has
// less than a quarter of the width: a name cut is read whole in the
// header's limiter line, an error cut is read in the detail.
func giveBack(cols []column, errCol, w int) {
	want := max(24, w/4)
	for i := range cols {
		c := &cols[i]
		if c.title != "CONTROLLER" && c.title != "CTRL" || c.width <= ctlCut || cols[errCol].width >= want {
			continue
		}
		d := min(c.width-ctlCut, want-cols[errCol].width)
		c.width -= d
		cols[errCol].width += d
	}
}

// fitValues narrows each column of fixed width (not KEY, POD or an error)
// to its widest value among rows, or its title if wider: the width laid
// out is the most a value may need ("for 12m", "scheduled"), and a page of
// "16m40s" under NEXT left LAST ERROR 17 cells of 80 while NEXT kept 8
// for 6. A title wider than every value gives way to its short form
// (CONTROLLER to CTRL). With no rows (loading) the widths stay.
func fitValues(cols []column, rows []explain.KeyRow) {
	if len(rows) == 0 {
		return
	}
	for i := range cols {
		c := &cols[i]
		if c.name || c.message || c.cell == nil {
			continue
		}
		widest := 0
		for j := range rows {
			widest = max(widest, lipgloss.Width(text.Cell(c.cell(&rows[j]), 0)))
		}
		if c.short != "" && widest < len(c.title) {
			c.title = c.short
		}
		c.width = min(c.width, max(widest, len(c.title)))
	}
}

// keyCells is how many cells key's cell takes whole: escaped, as it is
// shown (not its bytes: a wide rune takes two cells in three bytes or four).
func keyCells(key string) int { return lipgloss.Width(text.Cell(key, 0)) }

// sharedNamespace is the namespace every key of the page is in ("demo" of
// "demo/naive-00001"), or "" when they differ or some key has none.
func (tb TopTable) sharedNamespace() string {
	if tb.M.Page == nil || len(tb.M.Page.Items) == 0 {
		return ""
	}
	ns, _, ok := strings.Cut(tb.M.Page.Items[0].Key.Key, "/")
	if !ok || ns == "" {
		return ""
	}
	for _, k := range tb.M.Page.Items[1:] {
		if !strings.HasPrefix(k.Key.Key, ns+"/") {
			return ""
		}
	}
	return ns
}

// Lines renders the visible page: a header row and one row per key, the
// selected one highlighted and changed ones marked "•".
func (tb TopTable) Lines() []string {
	s := &tb.C.Styles
	var rows []explain.KeyRow
	if tb.M.Page != nil {
		// Every row of the page, not only those shown: the columns keep
		// their widths as the cursor scrolls.
		now := tb.C.ServerNow(tb.M.Page.ServerTime, tb.M.fetchedAt)
		rows = make([]explain.KeyRow, len(tb.M.Page.Items))
		for i := range tb.M.Page.Items {
			rows[i] = explain.NewKeyRow(&tb.M.Page.Items[i].Key, tb.M.Page.Items[i].Pod, now)
			if tb.C.LogStale() {
				rows[i].NextRetry = afterLogEnd(rows[i].NextRetry)
			}
		}
	}
	cols := tb.columns(rows)
	w := tb.C.Width
	var b strings.Builder
	b.WriteString("  ")
	for i, c := range cols {
		if i > 0 {
			b.WriteByte(' ') // between columns only: a trailing one cut the last title
		}
		if c.right {
			b.WriteString(widget.FitLeft(c.title, c.width))
		} else {
			b.WriteString(widget.Fit(c.title, c.width))
		}
	}
	lines := []string{s.Header.Render(widget.Fit(b.String(), w))}
	if tb.M.Page == nil && tb.M.Err != nil {
		return append(lines, s.Dim.Render("  no answer yet"))
	}
	if tb.M.Page == nil {
		return append(lines, s.Dim.Render("  loading…"))
	}
	if len(tb.M.Page.Items) == 0 {
		msg := "  no keys match"
		if tb.M.Page.Total == 0 {
			msg = "  no keys tracked yet"
		}
		return append(lines, s.Dim.Render(msg))
	}
	silent := tb.M.silent()
	cells := make([]string, len(cols))
	for i := range tb.Shown {
		k := &tb.M.Page.Items[i]
		for j, c := range cols {
			v := text.Cell(c.cell(&rows[i]), 0) // names and errors are the cluster's text: escaped, a tab or newline too
			switch {
			case c.right:
				cells[j] = widget.FitLeft(v, c.width)
			case c.name:
				cells[j] = widget.FitKey(v, c.width)
			case c.message:
				cells[j] = widget.FitMessage(v, c.width)
			default:
				cells[j] = widget.Fit(v, c.width)
			}
		}
		// The mark column: "›" on the selected row (so the selection shows
		// without colour too), then "•" changed or "*" estimated.
		cur, mark := " ", " "
		changed := tb.M.changed[rowID(k)]
		switch {
		case changed:
			mark = "•"
		case k.Estimated:
			mark = "*"
		}
		if i == tb.Cursor {
			lines = append(lines, s.Selected.Render(widget.Fit("›"+mark+strings.Join(cells, " "), w)))
			continue
		}
		if silent {
			// The last answer, kept and dimmed: the endpoint is not answering.
			lines = append(lines, s.Dim.Render(widget.Fit(cur+mark+strings.Join(cells, " "), w)))
			continue
		}
		cells[0] = s.StateStyle(k.State).Render(cells[0])
		if changed {
			mark = s.Changed.Render(mark)
		}
		lines = append(lines, widget.Fit(cur+mark+strings.Join(cells, " "), w))
	}
	return lines
}

// SelectedLine is the selected row's key whole and its last error, as much
// as fits (cut in the middle, keeping its end): a narrow table cuts both.
// The footer shows it, above a status message, so that neither hides it.
func (tb TopTable) SelectedLine() string {
	s := &tb.C.Styles
	k := tb.Selected
	if k == nil {
		return ""
	}
	line := s.Bold.Render("› "+text.Cell(k.Key.Key, 0)) + s.Dim.Render(" · ")
	if k.LastError == nil {
		return widget.Fit(line+s.Dim.Render("no error"), tb.C.Width)
	}
	return line + widget.FitMessage(text.OneLine(k.LastError.Message, 0), max(0, tb.C.Width-lipgloss.Width(line)))
}
