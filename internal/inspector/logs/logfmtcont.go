package logs

import "bytes"

// A logfmt record (logrus' text, slog's TextHandler, go-kit) is never
// written over two lines: a quoted value has its newlines escaped. One
// whose quoted value is still open at the line's end was cut by a paste,
// and when the next lines open no record they are its pieces — a form
// that wrapped it at its words, each piece keeping the space it was cut
// at (batch 10's 235, kubeflow/pipelines#869: one logrus record over nine
// lines), or a terminal at its width:
//
//	time="2019-02-27T16:32:26Z" level=error msg="Permanent failure while syncing resource ⎵
//	(kubeflow/calculation-pipeline-grqzn): CustomError (code: 1): Syncing Workflow (calculation-pipeline-
//	grqzn): permanent failure: …
//
// logfmtCont puts the pieces back on one line, as they were cut, until
// the value closes, or a line is blank, tab-led, a Markdown fence or a
// record's start (continues); a value that never closes is read as cut
// there (logfmtcut.go).
type logfmtCont struct {
	rec []byte
	// indent is the record's first line's: a block's indent, its pieces'
	// too when it was indented after the paste wrapped it.
	indent []byte
	open   bool // the value is still open at the record's end
}

// logfmtStart is where a logfmt record's first key is in line, behind a
// collector's prefix: time=, level= or ts= at the line's start or after a
// space within its first 64 bytes; -1 for none.
func logfmtStart(line []byte) int {
	head := line[:min(len(line), 64+len(`level=`))]
	for _, k := range [][]byte{[]byte(`time="`), []byte(`level=`), []byte(`ts=`)} {
		if i := bytes.Index(head, k); i == 0 || i > 0 && head[i-1] == ' ' {
			return i
		}
	}
	return -1
}

// openQuote says whether b leaves a quoted value open: an odd number of
// quotes not escaped.
func openQuote(b []byte, open bool) bool {
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '\\':
			if open {
				i++
			}
		case '"':
			open = !open
		}
	}
	return open
}

// start begins a cut record with line when it is one: a logfmt record
// whose quoted value is open at its end, the next line (the first of
// ahead; opens: it opens with joinStart's shapes) a piece.
func (c *logfmtCont) start(line, ahead []byte, opens bool) bool {
	// Most lines are followed by a record's start (inlined).
	return !opens && c.begin(line, ahead)
}

// begin is start past its common case.
func (c *logfmtCont) begin(line, ahead []byte) bool {
	if len(line) == 0 || line[len(line)-1] == '"' || bytes.IndexByte(line, '"') < 0 {
		return false
	}
	i := logfmtStart(line)
	if i < 0 || !openQuote(line[i:], false) {
		return false
	}
	nl := bytes.IndexByte(ahead, '\n')
	indent := line[:len(line)-len(bytes.TrimLeft(line, " \t"))]
	if nl < 0 || !continues(quoteOff(trimEOL(ahead[:nl])), indent) || bytes.HasPrefix(ahead, []byte("```")) {
		return false
	}
	c.rec, c.open = append([]byte(nil), line...), true
	c.indent = c.rec[:len(indent)]
	return true
}

// piece says whether line is the open record's next piece.
func (c *logfmtCont) piece(line []byte) bool {
	return c.rec != nil && continues(line, c.indent) && !bytes.HasPrefix(unindent(line, c.indent), []byte("```")) &&
		len(c.rec)+len(line) <= maxObjectBytes
}

// next takes a piece (piece said it is one) and says when the record is
// whole: its value closed.
func (c *logfmtCont) next(line []byte) (done bool) {
	line = unindent(line, c.indent)
	c.rec = append(c.rec, line...)
	c.open = openQuote(line, c.open)
	return !c.open
}

// take hands out the record put back together.
func (c *logfmtCont) take() []byte {
	out := c.rec
	c.rec = nil
	return out
}
