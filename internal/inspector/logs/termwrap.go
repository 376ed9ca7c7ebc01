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

// recordStart is a line that opens a record: a date, a klog header, a
// JSON record, logfmt, logrus' terminal form, an epoch: never a piece of
// a wrapped one.
var recordStart = regexp.MustCompile(`^(?:\d{4}[-/]\d\d[-/]\d\d|[IWEF]\d{4} |\{"|\d{10}|time=|level=|ts=|[A-Z]{4}\[)`)

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
// next piece of it.
func (w *termWrap) piece(line []byte) bool {
	return w.rec != nil && w.last == w.width && utf8.RuneCount(line) <= w.width && !recordStart.Match(line)
}

// next takes the record's next piece (piece said it is one), and says
// when the record is whole: its object closed, or its piece narrower than
// the terminal.
func (w *termWrap) next(line []byte) (done bool) {
	w.rec = append(w.rec, line...)
	w.scan(line, true)
	w.last = utf8.RuneCount(line)
	return w.depth <= 0 || w.last != w.width
}

// take hands out the record put back together, its padding dropped.
func (w *termWrap) take() []byte {
	out := bytes.TrimRight(w.rec, " ")
	*w = termWrap{}
	return out
}
