package logs

import (
	"bytes"
	"strconv"
)

// parseLogfmt reads key=value pairs from the start of the line, as log/slog's
// TextHandler (time=… level=ERROR msg="Reconciler error" err=…), logrus'
// text formatter (time="…" level=error msg=…) and go-kit's logfmt
// (level=error ts=… caller=… msg=…) write them. Values are bare words or
// Go-quoted strings.
func parseLogfmt(line []byte, f *fields) bool {
	i := 0
	for {
		i = skipSpace(line, i)
		if i >= len(line) {
			return f.msg != ""
		}
		eq := bytes.IndexByte(line[i:], '=')
		if eq <= 0 {
			return f.msg != ""
		}
		key := line[i : i+eq]
		i += eq + 1
		var val []byte
		quoted := i < len(line) && line[i] == '"'
		if quoted {
			e, ok := skipString(line, i)
			if !ok {
				return cutLogfmt(line, i, key, f) // logfmtcut.go
			}
			val, i = line[i:e], e
		} else {
			e := i
			for e < len(line) && line[e] != ' ' {
				e++
			}
			val, i = line[i:e], e
		}
		switch string(key) {
		case "time", "ts":
			f.at = parseTime(logfmtString(val, quoted))
		case "level":
			f.severe, f.leveled = f.severe || severeLevel(val), true
		case "caller", "source", "func":
		default:
			if f.wants(key) {
				f.set(key, logfmtString(val, quoted))
			} else {
				f.noteKeyField(key, val)
			}
		}
	}
}

// logfmtString is a value's text: a quoted one unquoted.
func logfmtString(val []byte, quoted bool) string {
	if !quoted {
		return string(val)
	}
	if bytes.IndexByte(val, '\\') < 0 {
		return string(val[1 : len(val)-1])
	}
	if s, err := strconv.Unquote(string(val)); err == nil {
		return s
	}
	return unescape(val[1 : len(val)-1])
}

// logrusLevels are the four letters logrus' terminal form starts with.
var logrusLevels = []string{"ERRO", "WARN", "INFO", "DEBU", "TRAC", "FATA", "PANI"}

// isLogrus says whether line starts as logrus' terminal form does:
// ERRO[0012] or, with FullTimestamp, ERRO[2021-07-15T11:41:10-04:00].
func isLogrus(line []byte) bool {
	if len(line) < 6 || line[4] != '[' {
		return false
	}
	for _, l := range logrusLevels {
		if string(line[:4]) == l {
			return true
		}
	}
	return false
}

// parseLogrus reads logrus' terminal form: LEVL[TIME] message, padded, then
// key=value pairs. TIME is the seconds since the process started unless
// FullTimestamp is set: only a full timestamp is a time.
func parseLogrus(line []byte, f *fields) bool {
	end := bytes.IndexByte(line, ']')
	if end < 0 {
		return false
	}
	f.leveled = true
	f.severe = string(line[:4]) == "ERRO" || string(line[:4]) == "WARN" || string(line[:4]) == "FATA" || string(line[:4]) == "PANI"
	if stamp := line[5:end]; !digits(stamp) {
		// A bare number is the seconds since the process started, not an
		// epoch: only a full timestamp is a time.
		f.at = parseTime(string(stamp))
	}
	rest := bytes.TrimLeft(line[end+1:], " ")
	// The message ends at its padding (two spaces) or at the first pair.
	msgEnd := bytes.Index(rest, []byte("  "))
	if msgEnd < 0 {
		msgEnd = len(rest)
		for i := 0; i < len(rest); {
			w := firstWord(rest[i:])
			if bytes.IndexByte(w, '=') > 0 {
				msgEnd = max(0, i-1)
				break
			}
			i += len(w) + 1
		}
	}
	f.msg = string(bytes.TrimSpace(rest[:msgEnd]))
	return klogPairs(rest, msgEnd, f)
}
