package logs

import (
	"bytes"
	"strings"
	"time"
)

// consoleFields reads a zap console line by its shape, whatever its
// message: zap's consoleEncoder (zapcore/console_encoder.go) writes the
// time, the level, the logger's name and the caller, each there or not,
// then the message, then the fields as one JSON object when there are
// any, with EncoderConfig.ConsoleSeparator between them (a tab unless
// set; " | " as MATRIXX's engine-operator sets it, batch11/1106). Only a
// line whose separators survived is read so: the level word must be its
// first or second part (after the time), and a part before the message
// is taken for the logger only when it is one word. ok is false for a
// line of another shape, or whose JSON object is not one.
func consoleFields(line []byte, f *fields) bool {
	line = bytes.TrimRight(line, " ")
	var sep []byte
	switch {
	case bytes.IndexByte(line, '\t') >= 0:
		sep = []byte("\t")
	case bytes.Contains(line, []byte(" | ")):
		sep = []byte(" | ")
	default:
		return false
	}
	head, obj := line, -1
	if i := bytes.Index(line, sepBrace(sep)); i >= 0 {
		head, obj = line[:i], i+len(sep)
	}
	parts := bytes.Split(head, sep)
	var at time.Time
	if len(parts) > 1 && !isLevel(bytes.TrimSpace(parts[0])) {
		if at = consoleTime(string(bytes.TrimSpace(parts[0]))); at.IsZero() {
			return false
		}
		parts = parts[1:]
	}
	level := bytes.TrimSpace(parts[0])
	if !isLevel(level) || len(parts) < 2 {
		return false
	}
	parts = parts[1:]
	var logger, caller []byte
	if w := bytes.TrimSpace(parts[0]); len(parts) > 1 && !bytes.ContainsAny(w, " \t") && !isCaller(w) {
		logger, parts = w, parts[1:]
	}
	if w := bytes.TrimSpace(parts[0]); len(parts) > 1 && isCaller(w) {
		caller, parts = callerStem(w), parts[1:]
		f.callerPkg = callerPkgOf(w) // before the fields: callerfield.go
	}
	if obj >= 0 && !eachField(line, obj, f) {
		return false
	}
	f.at = at
	f.severe, f.leveled = f.severe || severeLevel(level), true
	if logger != nil {
		f.logger = string(logger)
	}
	if caller != nil {
		f.caller = caller
	}
	f.msg = string(bytes.TrimSpace(bytes.Join(parts, sep)))
	return true
}

// sepBrace is sep, then the brace that opens the fields.
func sepBrace(sep []byte) []byte {
	if sep[0] == '\t' {
		return []byte("\t{")
	}
	return []byte(" | {")
}

// isCaller says whether w is a caller as zap writes it: "file.go:123",
// with its package's path before it or not.
func isCaller(w []byte) bool {
	i := bytes.Index(w, []byte(".go:"))
	return i > 0 && len(w) > i+4 && digits(w[i+4:]) && !bytes.ContainsAny(w, " \t")
}

// consoleTime reads a console line's time: one word, or a date and a time
// ("2017-09-26 19:50:06.716", zapcore.TimeEncoderOfLayout); zero when it
// is neither (a placeholder).
func consoleTime(w string) time.Time {
	ws := strings.Fields(w)
	switch {
	case len(ws) == 1 && looksLikeTime([]byte(ws[0])):
		return parseTime(ws[0])
	case len(ws) == 2 && len(ws[0]) == 10 && looksLikeTime([]byte(ws[0])) && len(ws[1]) >= 8 && ws[1][2] == ':':
		return parseTime(ws[0] + "T" + ws[1] + "Z")
	}
	return time.Time{}
}
