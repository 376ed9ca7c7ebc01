package logs

import (
	"bytes"
	"regexp"
)

// A structured klog record pasted by hand can arrive broken at a space,
// its key/values going on over the next lines, sometimes with blank lines
// between (a user's own reflow, an issue form's wrap):
//
//	E0531 13:41:24.333279 1 controller.go:329] "Reconciler error" err="…" controller="m" ⎵
//	M="default/m1" namespace="default" name="m1" reconcileID="…"
//
// klog ends a record with its last value, never with a space: a klog
// header line with a quoted message that ends in a space is cut. klogCont
// puts it back on one line while the lines after it hold key/values only,
// and on while each piece ends in a space too; a piece that does not is
// the record's last. A line that opens a record (a time, a klog header,
// logfmt's time=/level=/msg=, go-kit's ts=/caller=) is never a piece.
type klogCont struct {
	rec []byte
}

// klogStructuredHead is a klog header followed by a quoted message.
var klogStructuredHead = regexp.MustCompile(`^[IWEF]\d{4} \d\d:\d\d:\d\d\.\d+\s+\d+ [^\s\]]+\] "`)

// fieldsOnly is a line of key="value" or key=value pairs and nothing else.
var fieldsOnly = regexp.MustCompile(`^\s*(?:[A-Za-z_][\w.\-/]*=(?:"(?:[^"\\]|\\.)*"|[^\s"=]+)\s*)+$`)

// recordKeys are keys that open a record of their own (logfmt, go-kit):
// a line holding one is another record, not a piece of a cut klog one.
var recordKeys = regexp.MustCompile(`(?:^|\s)(?:time|ts|level|msg|caller)=`)

// start begins a cut record with line when it is one.
func (c *klogCont) start(line []byte) bool {
	if len(line) == 0 || line[len(line)-1] != ' ' || !klogStructuredHead.Match(line) {
		return false
	}
	c.rec = append([]byte(nil), bytes.TrimRight(line, " ")...)
	return true
}

// piece says whether line is the next piece of the open record: a blank
// line, or key/values only.
func (c *klogCont) piece(line []byte) bool {
	if c.rec == nil {
		return false
	}
	if len(bytes.TrimSpace(line)) == 0 {
		return true
	}
	return fieldsOnly.Match(line) && !recordKeys.Match(line) && !recordShape(line)
}

// next takes a piece (piece said it is one) and says when the record is
// whole: a non-blank piece that does not end in a space.
func (c *klogCont) next(line []byte) (done bool) {
	body := bytes.TrimSpace(line)
	if len(body) == 0 {
		return false
	}
	c.rec = append(c.rec, ' ')
	c.rec = append(c.rec, body...)
	return line[len(line)-1] != ' '
}

// take hands out the record put back together.
func (c *klogCont) take() []byte {
	out := c.rec
	c.rec = nil
	return out
}
