package logs

import "bytes"

// A logfmt record cut at the line's end inside a quoted value. logrus'
// text formatter, log/slog's TextHandler and go-kit quote a value with its
// newlines escaped, so a quoted value with no closing quote before the
// line's end was never written so: a paste cut it (the end of an inline
// code span, a terminal that hard-wrapped it, a window of the issue). As
// a JSON record cut inside a string (formats.go's cutString), it is read
// up to the line's end, the members before it whole, when the value cut
// is the message or the error and the line's level was read before it: a
// key or a controller cut short would be another one, and a line whose
// level comes after the cut is no record this reader can place.

// cutLogfmt reads the quoted value of key at line[i], which runs to the
// line's end unclosed, into f; it says whether the line is then a record.
func cutLogfmt(line []byte, i int, key []byte, f *fields) bool {
	switch string(key) {
	case "msg", "message", "error", "err", "reason":
	default:
		return false
	}
	if !f.leveled {
		return false
	}
	val := bytes.TrimRight(line[i:], " \t\r\n")
	// A cut escape: drop a backslash that escapes nothing.
	if n := len(val) - len(bytes.TrimRight(val, `\`)); n%2 == 1 {
		val = val[:len(val)-1]
	}
	if len(val) <= 1 {
		return false
	}
	f.set(key, logfmtString(append(bytes.Clone(val), '"'), true))
	return f.msg != ""
}
