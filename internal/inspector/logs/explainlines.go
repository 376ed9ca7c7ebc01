package logs

import (
	"fmt"
	"slices"
	"strconv"
	"time"
)

// LineReading is how the reader read one line of a log: what
// --explain-lines prints for each line that yielded something or looked
// like a failure, so that a user writing a dialect, or a maintainer
// answering an issue, sees what was read and why.
type LineReading struct {
	// Line is the number of the log's line (the last physical line of a
	// klog value spread over several).
	Line int
	// Dialect, Controller and Key are the record's; empty for a line not
	// read.
	Dialect, Controller, Key string
	// At is the line's time as read; zero when unknown (none, or one that
	// cannot be true: Implausible).
	At          time.Time
	Implausible bool
	// Meaning is what the line says of the key ("failure", "gave up", …),
	// or that it looked like a failure and was not read.
	Meaning string
	// Why is what in the line made it so: the message of the dialect (or
	// the phrases the generic reader read), or why it was not read.
	Why string
	// Tried is its message as its format reads it: the text the dialects'
	// patterns were tried against (a ^-anchored pattern meets the level
	// word, when the format leaves it there). Set for a line not read, and
	// for one a dialect's prefix or regexp read, which Why names: either
	// is only part of the message.
	Tried string
	// Error is the error read from the line: what the key's LAST ERROR
	// says of it.
	Error string
}

// reading is r's LineReading.
func reading(r Record) LineReading {
	lr := LineReading{Dialect: r.Dialect, Controller: r.Controller, Key: r.Key(), At: r.At, Meaning: meaning(r), Error: r.Error}
	switch {
	case r.Dialect == genericName:
		lr.Why = "the work-queue idiom, one key, read by " + orElse(r.Evidence, r.Message) + "; limiter assumed client-go's default"
	case r.Tried != "":
		// A dialect's prefix or regexp: its line (Message) and the message.
		lr.Why, lr.Tried = "the dialect's line "+r.Message, r.Tried
	case r.Message != "":
		lr.Why = "the message " + strconv.Quote(r.Message)
	}
	if r.Dialect != genericName && r.Evidence != "" {
		lr.Why += "; " + r.Evidence // its key from another line (keybefore.go)
	}
	return lr
}

// meaning says what a record means for its key.
func meaning(r Record) string {
	switch r.What {
	case ErrorLine:
		switch {
		case r.GaveUp:
			return "gave up: forgotten and not requeued, failed until the object changes"
		case r.Terminal:
			return "terminal error: not retried"
		case r.RetryIn > 0:
			return fmt.Sprintf("failure, next try in %v (stated)", r.RetryIn)
		case r.Retries > 0:
			return fmt.Sprintf("failure, the key's failure %d (stated)", r.Retries)
		}
		return "failure, retried after the limiter's delay (estimated)"
	case StartLine:
		return "a reconcile started"
	case SuccessLine:
		if r.Finished {
			return "a sync's end, logged whatever its outcome: a success when no failure line of its key follows within 1s"
		}
		return "success: the key is forgotten"
	case RequeueAfterLine:
		return fmt.Sprintf("requeue after %v (not a failure)", r.RequeueAfter)
	case RequeueLine:
		return "Requeue: true: a rate-limited retry without an error"
	case QueueLine:
		return fmt.Sprintf("the queue's items (%d)", len(r.Items))
	case ForgetLine:
		return fmt.Sprintf("a forget of %d keys", r.Count)
	case WarningLine:
		return "a warning logged just before its attempt's failure line: the failure when that line is not in the log"
	case CauseLine:
		return "the reconciler's own error line for its key: the error of a warning of the same attempt that follows, never counted itself"
	case CountLine:
		return fmt.Sprintf("the failure count stated beside the retry (%d with this failure), put on the failure line of the same attempt", r.Retries)
	case KeyLine:
		return "names the key of its attempt, put on the attempt's failure line, which names none"
	case LoopLine:
		return "a failure of a loop over every object with no work queue: no key's retry, not counted"
	}
	return ""
}

// DialectInfo describes a dialect for `kubectl backoff dialects`.
type DialectInfo struct {
	// Name is the dialect's; Source "built-in" or the FILE:LINE that
	// defines it.
	Name, Source string
	// Messages are the messages it reads (a prefix ends in "…", a regexp
	// is between slashes); for the generic reader, its rule.
	Messages []string
}

// Dialects lists the built-in dialects, in the order lines are tried, the
// dialects of files after them, and the generic reader last.
func Dialects(files []Dialect) []DialectInfo {
	var out []DialectInfo
	for _, d := range builtins {
		out = append(out, dialectInfo(d, "built-in"))
	}
	for _, d := range files {
		out = append(out, dialectInfo(d, d.Source))
	}
	return append(out, DialectInfo{Name: genericName, Source: "built-in", Messages: []string{
		"an error or warning line that says a sync, reconcile, handle or process failed, and that it will be retried, " +
			"requeued or re-added, or was dropped, naming one key (client-go's default limiter assumed)",
		"a line naming one key and its error, whose template comes for a key at growing gaps, as a rate limiter's delays (never at equal gaps, a timed poll's)"}})
}

// dialectInfo describes d's lines: a regexp between slashes, a prefix
// ending in "…", a key in the message as TEXT KEY SEP ERROR.
func dialectInfo(d Dialect, source string) DialectInfo {
	info := DialectInfo{Name: d.Name, Source: source}
	for i := range d.Lines {
		info.Messages = append(info.Messages, d.Lines[i].shown)
	}
	return info
}

// showLine is l as `kubectl backoff dialects` and --explain-lines say it:
// a regexp between slashes, a prefix ending in "…", a key in the message as
// TEXT KEY SEP ERROR; quoted, but for a regexp.
func showLine(l *DialectLine) string {
	switch {
	case l.Regexp != nil:
		return "/" + l.Regexp.String() + "/"
	case l.KeySep != "":
		return strconv.Quote(l.Text + "KEY" + l.KeySep + "ERROR" + l.ErrorSuffix)
	case l.Prefix:
		return strconv.Quote(l.Text + "…")
	}
	return strconv.Quote(l.Text)
}

// noteMerged records, for --explain-lines, that line inner's failure is
// counted on line into's attempt (attempt.go). Called with s.mu held.
func (s *Store) noteMerged(inner, into int) {
	if s.opts.ExplainLines == nil || inner == 0 {
		return
	}
	if s.mergedInto == nil {
		s.mergedInto = map[int]int{}
	}
	s.mergedInto[inner] = into
}

// explain gives lr to Options.ExplainLines, in the log's order: while a
// bare failure waits to learn whether a handler's line counts it
// (attempt.go), the readings after it wait too; then each says what was
// decided.
func (s *Store) explain(lr LineReading) {
	if s.opts.ExplainLines == nil {
		return
	}
	s.mu.Lock()
	s.explainQ = append(s.explainQ, lr)
	out := s.explainReadyLocked()
	s.mu.Unlock()
	for _, lr := range out {
		s.opts.ExplainLines(lr)
	}
}

// explainReadyLocked takes the queued readings once no failure waits,
// and no line waits to learn whether it is an inner cause (innercand.go).
func (s *Store) explainReadyLocked() []LineReading {
	if len(s.pending) > 0 || len(s.explainQ) == 0 || s.readingHeld || int(s.lines.Load()) <= s.innerHoldTo {
		return nil
	}
	out := s.explainQ
	s.explainQ = nil
	// Records held for time order were read after the lines around them.
	slices.SortStableFunc(out, func(a, b LineReading) int { return a.Line - b.Line })
	out = slices.DeleteFunc(out, func(lr LineReading) bool {
		// Read after all, with the key of the line after it (keyafter.go).
		return s.keyedAfter[lr.Line] && lr.Meaning == notReadMeaning
	})
	for i := range out {
		if into, ok := s.mergedInto[out[i].Line]; ok {
			delete(s.mergedInto, out[i].Line)
			out[i].Meaning = fmt.Sprintf("the same failed attempt as line %d's (one cause, one handler's line), counted once, there", into)
		}
		if into, ok := s.echoOf[out[i].Line]; ok {
			delete(s.echoOf, out[i].Line)
			out[i].Meaning = fmt.Sprintf("the same failed attempt as line %d's, said again through HandleError, counted once, there", into)
			out[i].Why = fmt.Sprintf("an \"Unhandled Error\" whose error is line %d's, word for word, of the same key and message, within a second after it", into)
		}
		if into, ok := s.giveUpOf[out[i].Line]; ok {
			delete(s.giveUpOf, out[i].Line)
			out[i].Meaning = fmt.Sprintf("the error of line %d's attempt, which gave the key up, counted once, there", into)
			out[i].Why = fmt.Sprintf("an \"Unhandled Error\" of the key within a second after line %d, a give-up that stated no error", into)
		}
		if c, ok := s.innerOf[out[i].Line]; ok {
			delete(s.innerOf, out[i].Line)
			out[i].Meaning = fmt.Sprintf("read as the inner cause of line %d's attempt, counted once, there", c.into)
			out[i].Why = fmt.Sprintf("a failure naming no key, whose error line %d's wraps (its words, \": \", then this error) within a second", c.into)
			out[i].Error = c.err
		}
	}
	return out
}
