package logs

import (
	"bytes"
	"regexp"
	"unicode/utf8"
)

// A record copied from a terminal comes hard-wrapped: cut at the
// terminal's width, its pieces on lines of their own, each as wide as the
// first, with no space at the cut (a name split mid-word: "sample-mo" /
// "nitoring-stack"). A zap console record shows it by its fields: the
// JSON object it ends with is still open at the cut. termWrap puts such a
// record back on one line: a line at least minWrapWidth wide (no tab: a
// terminal's copy has none) whose JSON object is open continues on the
// next line when that is no record's start, and on while each piece is as
// wide as the first and the object stays open.
type termWrap struct {
	rec   []byte
	width int
	// depth, inString, escaped: the scan of the JSON object so far.
	depth             int
	inString, escaped bool
	last              int // the width of the last piece
}

// minWrapWidth is the narrowest terminal a wrap is read at.
const minWrapWidth = 80

// scan follows the JSON object of b: from the first "{" of a record, the
// braces outside strings.
func (w *termWrap) scan(b []byte, opened bool) {
	for _, c := range b {
		switch {
		case w.escaped:
			w.escaped = false
		case w.inString && c == '\\':
			w.escaped = true
		case c == '"' && (opened || w.depth > 0):
			w.inString = !w.inString
		case w.inString:
		case c == '{':
			w.depth++
		case c == '}':
			w.depth--
		}
	}
}

// start begins a wrapped record with line when it is one: wide enough, no
// tab, its JSON object open at its end.
func (w *termWrap) start(line []byte) bool {
	// Cheapest first: every line of a log comes here.
	if len(line) < minWrapWidth {
		return false
	}
	brace := bytes.IndexByte(line, '{')
	if brace <= 0 || bytes.IndexByte(line, '\t') >= 0 {
		return false
	}
	width := utf8.RuneCount(line)
	if width < minWrapWidth {
		return false
	}
	*w = termWrap{}
	w.scan(line[brace:], false)
	if w.depth <= 0 {
		*w = termWrap{}
		return false
	}
	w.rec, w.width, w.last = append([]byte(nil), line...), width, width
	return true
}

// piece says whether line, after a wrapped record's last piece, is the
// next piece of it: as wide as the terminal's at most after a piece that
// filled it, or any width after a piece cut inside a JSON string — a
// name or value split mid-token ("r" / "econcilerKind"), which no record
// ends with, whatever width the paste kept (a terminal's copy re-spaced
// by hand: the pieces are then no longer all as wide as the first).
func (w *termWrap) piece(line []byte) bool {
	if w.rec == nil || len(line) == 0 || recordShape(line) {
		return false
	}
	if w.last == w.width && utf8.RuneCount(line) <= w.width {
		return true
	}
	return w.inString && line[0] != ' ' && line[0] != '\t' && !prefixedStart.Match(line)
}

// prefixedStart is a line that opens a record behind a collector's prefix
// ("pod container 2021-…", "[pod/x/c] E0102 …"): a time or a klog header
// within its first words. A cut record is never continued by one.
var prefixedStart = regexp.MustCompile(`^(?:\S+[\s\]:]+){1,3}(?:\d{4}[-/]\d\d[-/]\d\d|[IWEF]\d{4} \d\d:)`)

// next takes the record's next piece (piece said it is one), and says
// when the record is whole: its object closed, or its piece narrower than
// the terminal.
func (w *termWrap) next(line []byte) (done bool) {
	w.rec = append(w.rec, line...)
	w.scan(line, true)
	w.last = utf8.RuneCount(line)
	return w.depth <= 0 || (w.last != w.width && !w.inString)
}

// take hands out the record put back together, its padding dropped.
func (w *termWrap) take() []byte {
	out := bytes.TrimRight(w.rec, " ")
	*w = termWrap{}
	return out
}
