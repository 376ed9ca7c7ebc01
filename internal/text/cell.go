package text

import "strings"

// MaxName bounds a name (a key, a controller, a pod) where it is shown as
// one: a Kubernetes object's key is at most 317 runes (namespace 63, "/",
// name 253), so no real object's is cut; a longer one is a log's text (an
// attacker's, or a line misread) and would push every other column of its
// table, and every line of an answer, off the screen.
const MaxName = 320

// Cell is s as one cell of a table or one value of a line: Printable, and
// its tabs, newlines and carriage returns escaped too (a tab splits a cell
// in two, a newline a row), cut in its middle to at most n runes (n <= 0:
// whole) with "…", keeping as much of its end as of its start: a name's
// ends tell it from its neighbours ("team-a/web-…-7d9f8").
func Cell(s string, n int) string { return CellIn(s, n, Runes) }

// CellIn is Cell measured and cut by m: Runes for the CLI's tab-aligned
// tables, Cells for a terminal UI's. The one rule for a name's cell in
// both, so that get and top cut a key alike: escaped, then cut in its
// middle, keeping as much of its end as of its start, and from 12 on at
// least nameTail of its end (a key's distinguishing suffix, "ved-00012").
func CellIn(s string, n int, m Measure) string {
	s = cellBreaks.Replace(Printable(s))
	if n <= 0 {
		return s
	}
	tail := (n - 1) - (n-1)/2
	if n >= 12 {
		tail = max(tail, nameTail)
	}
	return CutMiddle(s, n, tail, false, m)
}

// nameTail is how much of its end a name cut in 12 or more keeps at
// least: the numbered suffix of a generated name ("ved-00012").
const nameTail = 8

// cellBreaks escapes what Printable leaves and a table cannot hold: built
// once, as a Replacer is meant to be, not per cell.
var cellBreaks = strings.NewReplacer("\t", `\t`, "\n", `\n`)
