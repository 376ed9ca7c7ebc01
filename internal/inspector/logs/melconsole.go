package logs

import (
	"bytes"
	"regexp"
)

// .NET's Microsoft.Extensions.Logging writes a record to the console
// (its default formatter, "simple") over several lines: a header with the
// level's four letters, the category and the event id, then the message
// and the exception, each line indented six spaces, the exception's frames
// nine (batch26/2601, a KubeOps operator):
//
//	fail: KubeOps.Operator.Watcher.ResourceWatcher[0]
//	      Reconciliation of Modified for CustomObj/mycrd failed.
//	      k8s.Autorest.HttpOperationException: Operation returned … 'Conflict', …
//	         at k8s.Kubernetes.SendRequestRaw(…)
//
// melCont puts such a record back on one line, in the bracketed-level
// shape parsePlain reads ("[ERROR]\tCATEGORY[ID]\tMESSAGE: EXCEPTION",
// the category as its logger), the exception after ": " as the record's
// error, as a layout writing it on one line would. The frames are dropped:
// no reader reads them. The header is what makes it so — a level word
// ending in a colon, a dotted category and a bracketed number, and nothing
// else on the line but a time before it (the formatter's TimestampFormat)
// — and the next line's six spaces.
type melCont struct {
	rec []byte
	// message says the message line was read; exception that its
	// exception was.
	message, exception bool
}

// melHeader is the formatter's header: an optional time, the level, the
// category (a .NET type name: dotted, generic arity and nesting marks
// allowed) and the event id.
var melHeader = regexp.MustCompile("^(.*?)(trce|dbug|info|warn|fail|crit): ([A-Za-z_][A-Za-z0-9_.`+<>,]*)\\[(-?[0-9]+)\\]$")

// melLevels are the formatter's level words as the words parsePlain
// reads in a bracketed tag.
var melLevels = map[string]string{"trce": "TRACE", "dbug": "DEBUG", "info": "INFO", "warn": "WARN", "fail": "ERROR", "crit": "FATAL"}

// dotnetException is an exception's first line: its type (a dotted name
// whose last part ends in Exception) and its message after ": ".
var dotnetException = regexp.MustCompile(`^(?:[A-Za-z_][A-Za-z0-9_]*\.)+[A-Z][A-Za-z0-9_]*Exception(?::|$)`)

// melIndent opens each of a record's lines after its header.
var melIndent = []byte("      ")

// start holds line when it is a header whose message follows on the next
// line (the input ahead).
func (c *melCont) start(line, ahead []byte) bool {
	// The cheap tests first: every line fed comes here.
	if len(line) < 10 || line[len(line)-1] != ']' || !bytes.HasPrefix(ahead, melIndent) || len(ahead) <= len(melIndent) || ahead[len(melIndent)] == ' ' {
		return false
	}
	m := melHeader.FindSubmatch(trimBlanks(line))
	if m == nil {
		return false
	}
	at := bytes.TrimSpace(m[1])
	if len(at) > 0 && !looksLikeTime(firstWord(at)) {
		return false
	}
	c.rec = append(c.rec[:0], at...)
	if len(at) > 0 {
		c.rec = append(c.rec, ' ')
	}
	c.rec = append(c.rec, '[')
	c.rec = append(c.rec, melLevels[string(m[2])]...)
	c.rec = append(c.rec, "]\t"...)
	c.rec = append(c.rec, m[3]...)
	c.rec = append(c.rec, '[')
	c.rec = append(c.rec, m[4]...)
	c.rec = append(c.rec, "]\t"...)
	c.message, c.exception = false, false
	return true
}

// piece says whether line is the held record's: indented six spaces (a
// blank line of the exception's text and its frames, too).
func (c *melCont) piece(line []byte) bool {
	return c.rec != nil && bytes.HasPrefix(line, melIndent)
}

// next takes one of the record's lines: the message's first, the
// exception's first; the rest (a message's further lines, the frames) are
// dropped. The record is held until a line that is no piece (release).
func (c *melCont) next(line []byte) (done bool) {
	text := bytes.TrimSpace(line)
	switch {
	case !c.message:
		c.rec = append(c.rec, text...)
		c.message = true
	case !c.exception && dotnetException.Match(text):
		c.rec = append(c.rec, ": "...)
		c.rec = append(c.rec, text...)
		c.exception = true
	}
	return false
}

// take hands the record out.
func (c *melCont) take() []byte {
	out := c.rec
	c.rec = nil
	return out
}
