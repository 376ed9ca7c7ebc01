package logs

import (
	"bytes"
	"regexp"
)

// A Java layout writes a logged exception after the message, on the next
// line (Log4j's and Logback's %throwable, %n between): the class and its
// message, then the frames, each behind the collector's prefix when there
// is one (batch18/1800):
//
//	POD 2025-07-18 06:24:24,708 i.j.o.p.e.EventProcessor [WARN ][ns/x] Uncaught error … pending.
//	POD org.apache.flink.kubernetes.operator.exception.UpgradeFailureException: Latest checkpoint …
//	POD     at org.apache.flink.kubernetes.operator.service.AbstractFlinkService.getLastCheckpoint(…)
//
// That exception is the line's error: excCont puts it back on the line
// after ": ", as a layout writing it on one line would (Quarkus': batch18/
// 1801). The frames are left as they are: no reader reads them.
type excCont struct {
	rec []byte
	// prefix is the collector's word the record opens with, which the
	// exception's line repeats ("POD "); nil for none.
	prefix []byte
}

// javaException is an exception's first line: its class (a dotted name
// whose last part ends in Exception or Error), then its message after ": ".
var javaException = regexp.MustCompile(`^[a-z][a-z0-9_]*(?:\.[a-z][a-z0-9_]*)+\.[A-Z][A-Za-z0-9_$]*(?:Exception|Error): \S`)

// start holds line when the line after it (the input ahead) is its
// exception: a record, with a time, whose exception follows.
func (c *excCont) start(line, ahead []byte) bool {
	// The cheap tests first: every line fed comes here. The exception's
	// line opens with its lowercase package, or with the prefix the record
	// opens with; never with a JSON object's brace. Its first byte is
	// ahead's, tested before the line's end is searched for (a JSON log's
	// next line, some 400 bytes, was searched on every line).
	if len(line) == 0 || len(ahead) == 0 {
		return false
	}
	if b := ahead[0]; b == '{' || b != line[0] && (b < 'a' || b > 'z') {
		return false
	}
	next := ahead
	if i := bytes.IndexByte(next, '\n'); i >= 0 {
		next = next[:i]
	}
	if len(next) < 12 {
		return false
	}
	if !bytes.Contains(next[:min(len(next), 400)], []byte("Exception: ")) && !bytes.Contains(next[:min(len(next), 400)], []byte("Error: ")) {
		return false
	}
	var prefix []byte
	if w := firstWord(line); len(w) < len(line) && looksLikeTime(firstWord(bytes.TrimLeft(line[len(w):], " "))) && bytes.HasPrefix(next, append(w, ' ')) {
		prefix = line[:len(w)+1]
	} else if !looksLikeTime(bytes.TrimPrefix(firstWord(line), []byte("["))) {
		// A layout may bracket its time ("[2022-10-16 03:28:38.536][ERROR]…",
		// batch24/2403).
		return false
	}
	if !javaException.Match(bytes.TrimPrefix(next, prefix)) {
		return false
	}
	c.rec, c.prefix = append([]byte(nil), trimBlanks(line)...), prefix
	return true
}

// piece says whether line is the held record's exception.
func (c *excCont) piece(line []byte) bool {
	return c.rec != nil && javaException.Match(bytes.TrimPrefix(line, c.prefix))
}

// next puts the exception on the record: it is whole.
func (c *excCont) next(line []byte) (done bool) {
	c.rec = append(c.rec, ": "...)
	c.rec = append(c.rec, bytes.TrimSpace(bytes.TrimPrefix(line, c.prefix))...)
	return true
}

// take hands the record out.
func (c *excCont) take() []byte {
	out := c.rec
	c.rec, c.prefix = nil, nil
	return out
}
