package cli

import (
	"fmt"
	"io"
	"strconv"
	"sync"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/logs"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// explainer is --explain-lines' printer of line readings to w; nil without
// the flag. The log's text in them (controller, key) is quoted, escaped.
func (o *fromLogsOptions) explainer(w io.Writer) func(logs.LineReading) {
	if !o.explainLines {
		return nil
	}
	var mu sync.Mutex // a followed log is read on its own goroutine
	return func(lr logs.LineReading) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprint(w, explainLine(lr))
	}
}

// explainLine is one line of --explain-lines.
func explainLine(lr logs.LineReading) string {
	if lr.Dialect == "" {
		s := fmt.Sprintf("--explain-lines: line %d: %s: %s", lr.Line, lr.Meaning, lr.Why)
		if lr.Tried != "" {
			s += "; its message, as the patterns were tried against it: " + strconv.QuoteToGraphic(lr.Tried)
		}
		if lr.Error != "" { // an inner cause's error, read for its wrapper
			s += "; the error read: " + strconv.QuoteToGraphic(lr.Error)
		}
		return s + "\n"
	}
	at := "time unknown"
	switch {
	case lr.Implausible:
		at = "time unknown (its time cannot be true)"
	case !lr.At.IsZero():
		at = "at " + text.Timestamp(lr.At)
	}
	s := fmt.Sprintf("--explain-lines: line %d: %s: controller %s, key %s: %s, %s; read as %s",
		lr.Line, lr.Dialect, strconv.QuoteToGraphic(lr.Controller), strconv.QuoteToGraphic(lr.Key), lr.Meaning, at, lr.Why)
	if lr.Tried != "" {
		// A prefix or a regexp read it: the message it was a part of.
		s += "; its message, as the patterns were tried against it: " + strconv.QuoteToGraphic(lr.Tried)
	}
	if lr.Error != "" {
		s += "; the error read: " + strconv.QuoteToGraphic(lr.Error)
	}
	return s + "\n"
}

// explainLinesOnScreen refuses top's --explain-lines when stderr is the
// terminal top draws on: its lines, one for each line read, were written
// over the table. To a file (2>lines.txt) they are kept whole.
func explainLinesOnScreen(explain, stderrIsTerminal bool) error {
	if !explain || !stderrIsTerminal {
		return nil
	}
	return fmt.Errorf("--explain-lines writes a line to stderr for each log line it reads, and stderr is the terminal top draws on: " +
		"send it to a file (top --from-logs FILE --explain-lines 2>lines.txt) or use get --from-logs FILE --explain-lines")
}
