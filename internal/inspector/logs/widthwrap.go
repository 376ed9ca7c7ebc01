package logs

import (
	"bytes"
	"unicode/utf8"
)

// A log copied from a terminal, or pasted into a form that wraps, comes
// hard-wrapped: every line wider than the terminal cut at its width, the
// pieces on lines of their own, whatever the format (klog, logrus, logfmt,
// JSON, zap console: termwrap.go reads zap console's by its open object).
// A piece cannot be told from a real multi-line message (a stack trace, a
// struct dump, a YAML block) by itself; it is told by the log's evidence:
//
//   - its width: the terminal cut lines at one column, so the widest lines
//     of the log are all exactly as wide, and several of them are followed
//     by a line that opens no record; a log not wrapped has lines of any
//     width, its widest one or a few, each followed by a record;
//   - its starts: a piece is no record's start (a klog header, a time, a
//     '{"', logfmt's time=/level=/ts=, logrus' terminal level, a
//     collector's prefix, or the start the record's own first line has);
//     a tab opens none (a terminal's copy has no tab), nor does a blank
//     line.
//
// widthWrap joins a line exactly as wide as the log's evidenced width to
// the next when that is no record's start, and on while each piece is as
// wide: the piece narrower than the width is the record's last.
type widthWrap struct {
	rec   []byte
	width int // the log's wrap width, the record's pieces' width
	last  int // the last piece's width
	// indent is the record's first line's: a block's indent.
	indent []byte
	// shape is the first bytes of the record's first line, as startShape
	// writes them: a line that opens the same way opens a record.
	shape [shapeLen]byte

	// opens says the line being fed opens with joinStart's shapes, as
	// the line before read it off ahead; nextOpens is that of the line after.
	opens, nextOpens bool
	// regular counts the lines before that opened a record
	// (joinStart), one after the other, blank lines aside.
	regular int
	// widest is the widest line fed so far (its columns, counted when
	// its bytes are more): a log has no line wider than its wrap.
	widest int
	// The evidence, of the window scanned last (the lines from the line
	// that asked, as buffered): its width (0: none), and how many lines
	// it holds, counted down as they are fed.
	evWidth, evLines int
}

// minCuts is how many lines of the widest width followed by no record's
// start make a width evidence.
const minCuts = 2

// start begins a wrapped record with line when the evidence says it was
// cut: as wide as the log's width, the next line (the first of ahead,
// the input buffered after line; opens says it opens with
// joinStart's shapes) no record's start.
func (h *widthWrap) start(line, ahead []byte, opens bool) bool {
	before, widest := h.regular, h.widest
	// This line opens a record if the line before read it so off ahead
	// (most lines: nothing more to read), else by its own bytes.
	known := h.opens
	h.nextOpens = opens
	lead := line
	if !known && len(lead) > 0 && lead[0] == ' ' {
		lead = bytes.TrimLeft(lead, " ")
	}
	switch {
	case known || joinStart(lead):
		h.regular++
	case len(lead) > 0 && startShape(line) == h.shape:
		// A start of the log's own (stern's pod before every line).
		h.regular++
	case len(bytes.TrimSpace(line)) > 0 && !bytes.HasPrefix(line, []byte("```")):
		h.regular, h.shape = 0, startShape(line)
	}
	if len(line) > h.widest {
		h.widest = max(h.widest, columns(line))
	}
	// Cheapest first: every line of a log comes here.
	if len(line) < minWrapWidth || opens {
		return false
	}
	nl := bytes.IndexByte(ahead, '\n')
	if nl < 0 {
		// The next line is not here yet: a live log, read as it comes,
		// is never a terminal's copy.
		return false
	}
	next := quoteOff(trimEOL(ahead[:nl]))
	indent := line[:len(line)-len(bytes.TrimLeft(line, " \t"))]
	if !continues(next, indent) {
		return false
	}
	width := columns(line)
	if width < minWrapWidth || width < widest || h.evidence(line, next, ahead, before, indent) != width {
		return false
	}
	shape := startShape(line)
	if shape == startShape(next) {
		return false
	}
	h.rec, h.width, h.last, h.shape = append([]byte(nil), line...), width, width, shape
	h.indent = h.rec[:len(indent)]
	return true
}

// nextOpens says whether the line ahead opens with a record's own start
// (joinStart), read off its first bytes: the next line of most logs,
// found without a look for its end (a newline breaks every shape
// joinStart reads, so the bytes past one never make one).
func nextOpens(ahead []byte) bool {
	return joinStart(ahead[:min(len(ahead), 16)])
}

// continues says whether next may be a piece: not blank, no tab or
// record start first, after the indent of the block (an indented paste's
// records open after it, its pieces too when it was indented after the
// wrap).
func continues(next, indent []byte) bool {
	next = unindent(next, indent)
	return len(bytes.TrimSpace(next)) > 0 && next[0] != '\t' && !opensRecord(next)
}

// unindent is line without the part of indent it opens with.
func unindent(line, indent []byte) []byte {
	i := 0
	for i < len(indent) && i < len(line) && line[i] == indent[i] {
		i++
	}
	return line[i:]
}

// piece says whether line, after the record's last piece, is its next
// piece: the last one filled the width, and line opens no record.
func (h *widthWrap) piece(line []byte) bool {
	return h.rec != nil && h.last == h.width && continues(line, h.indent) && startShape(line) != h.shape
}

// next takes the record's next piece (piece said it is one) and says
// when the record is whole: its piece narrower than the width.
func (h *widthWrap) next(line []byte) (done bool) {
	// A block indented after the wrap indents its pieces too: as wide
	// with it, joined without it.
	h.last = columns(line)
	h.rec = append(h.rec, unindent(line, h.indent)...)
	return h.last != h.width
}

// fed counts a line fed to the joiner off the evidence's window, and
// takes what the line before read of its start.
func (h *widthWrap) fed() {
	if h.evLines > 0 {
		h.evLines--
	}
	h.opens, h.nextOpens = h.nextOpens, false
}

// take hands out the record put back together.
func (h *widthWrap) take() []byte {
	out := h.rec
	h.rec = nil
	return out
}

// evidence is the log's wrap width, by the window of line and the lines
// buffered after it (0: none), scanned once per window: its widest lines
// followed by a line that may be a piece (cuts), minCuts of them at least
// as many as the lines that open no record after a narrower one (strays:
// a real multi-line message); or one cut, in a log whose every other line
// opens a record (before counts those just before line), three records at
// least, or two when the cut splits a word (next is the line after line).
func (h *widthWrap) evidence(line, next, ahead []byte, before int, indent []byte) int {
	if h.evLines > 0 {
		return h.evWidth
	}
	var w wrapWindow
	w.read(line, ahead, indent)
	h.evWidth, h.evLines = 0, w.lines
	switch {
	case w.widest < minWrapWidth || w.cuts == 0:
	case w.cuts >= minCuts && w.cuts >= w.strays,
		w.strays == 0 && (before+w.starts >= 3 || before+w.starts >= 2 && midWord(line, next)):
		h.evWidth = w.widest
	}
	return h.evWidth
}

// wrapWindow is what a window of lines shows of a wrap.
type wrapWindow struct {
	widest, cuts, strays, starts, lines int
}

// read reads line and the whole lines of ahead after it.
func (w *wrapWindow) read(line, ahead []byte, indent []byte) {
	prev := 0 // the last line's width
	look := func(l []byte) {
		l = quoteOff(trimEOL(l))
		w.lines++
		width := columns(l)
		switch {
		case len(bytes.TrimSpace(l)) == 0:
		case opensRecord(unindent(l, indent)):
			w.starts++
		case unindent(l, indent)[0] == '\t':
			w.strays++
		case prev == w.widest:
			w.cuts++
		default:
			w.strays++
		}
		if width > w.widest {
			// The cuts were of a narrower width: strays of this one.
			w.widest, w.strays, w.cuts = width, w.strays+w.cuts, 0
		}
		prev = width
	}
	look(line)
	for {
		nl := bytes.IndexByte(ahead, '\n')
		if nl < 0 {
			break
		}
		look(ahead[:nl])
		ahead = ahead[nl+1:]
	}
}

// midWord says whether a cut between line and next splits a word: a
// letter or digit on either side.
func midWord(line, next []byte) bool {
	return len(line) > 0 && len(next) > 0 && alnum(line[len(line)-1]) && alnum(next[0])
}

// alnum says whether c is an ASCII letter or digit.
func alnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// columns is the width of line on a terminal: its runes, a tab to the
// next stop of eight.
func columns(line []byte) int {
	col := 0
	for i := 0; i < len(line); {
		c := line[i]
		switch {
		case c == '\t':
			col += 8 - col%8
			i++
		case c < utf8.RuneSelf:
			col++
			i++
		default:
			_, size := utf8.DecodeRune(line[i:])
			col++
			i += size
		}
	}
	return col
}

// shapeLen is how many of a line's first bytes startShape keeps.
const shapeLen = 6

// startShape is the first bytes of line with its digits written 0: two
// records of one log open alike ("E0531 1" and "E0601 0", a pod's name
// before each line of stern), a piece rarely so.
func startShape(line []byte) (s [shapeLen]byte) {
	for i := 0; i < shapeLen && i < len(line); i++ {
		c := line[i]
		if c >= '0' && c <= '9' {
			c = '0'
		}
		s[i] = c
	}
	return s
}

// opensRecord says whether line opens a record: a record's own start
// (joinStart), journald's header, a collector's prefix.
func opensRecord(line []byte) bool {
	if joinStart(line) {
		return true
	}
	if _, ok := journaldHeader(line); ok {
		return true
	}
	return prefixedStart.Match(line)
}
