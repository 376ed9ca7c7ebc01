package logs

import (
	"bytes"
	"strconv"
	"time"
)

// klog's text header: Lmmdd hh:mm:ss.uuuuuu threadid file:line] msg k=v ...
// where L is I, W, E or F. It has no year and no zone: the year is taken
// from the reference time and the zone is UTC, as in a container.
const klogHeaderLen = len("I1130 08:24:34.270844")

// isKlog reports whether line starts with klog's header.
func isKlog(line []byte) bool {
	if len(line) < klogHeaderLen+2 {
		return false
	}
	switch line[0] {
	case 'I', 'W', 'E', 'F':
	default:
		return false
	}
	return digits(line[1:5]) && line[5] == ' ' && line[8] == ':' && line[11] == ':' && line[14] == '.'
}

func digits(b []byte) bool {
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return len(b) > 0
}

// parseKlog reads a klog text line after its header: klog structured
// (`"msg" key="value" key=123 key=[json]`), klogr's before klog v2
// (`LOGGER "msg"="msg" "key"="value" "request"={json}`, quoted keys that may
// hold spaces), or unstructured text (`Sync "ns/x" failed: …`, kept whole as
// the message). Multi-line values (klog writes them as `key=<` and indented
// lines) are put back on one line by Store.Read first (see joiner); a line
// given alone that opens one reads "(multi-line; see the log)" for its
// value.
func parseKlog(line []byte, ref parseRef, f *fields) bool {
	f.at = klogTime(line, ref)
	f.severe, f.leveled = line[0] == 'E' || line[0] == 'W' || line[0] == 'F', true
	end := bytes.Index(line, []byte("] "))
	if end < 0 {
		return false
	}
	f.caller = callerStem(line[:end])
	f.callerLine = callerLine(line[:end])
	i := skipSpace(line, end+2)
	if i < len(line) && line[i] != '"' {
		// klogr's logger name before "msg"=, or unstructured text.
		sp := bytes.IndexByte(line[i:], ' ')
		if sp < 0 || !bytes.HasPrefix(line[skipSpace(line, i+sp):], []byte(`"msg"=`)) {
			f.msg = string(line[i:])
			return true
		}
		f.logger = string(line[i : i+sp])
		i = skipSpace(line, i+sp)
	}
	if i >= len(line) {
		return false
	}
	if e, ok := skipString(line, i); !ok {
		return false
	} else if e >= len(line) || line[e] != '=' {
		// klog structured: the message first.
		msg, n, ok := klogString(line[i:])
		if !ok {
			return false
		}
		if j := skipSpace(line, i+n); j < len(line) && !startsPair(line[j:]) {
			// Text that opens with a quoted name (library-go's `"NAME"
			// controller failed to sync "key", err: …`): kept whole.
			f.msg = string(line[i:])
			return true
		}
		f.msg = msg
		i += n
	}
	return klogPairs(line, i, f)
}

// startsPair says whether b opens with a key=value pair: a word, or a
// quoted key, then '='.
func startsPair(b []byte) bool {
	if b[0] == '"' {
		e, ok := skipString(b, 0)
		return ok && e < len(b) && b[e] == '='
	}
	w := firstWord(b)
	eq := bytes.IndexByte(w, '=')
	return eq > 0
}

// klogPairs reads key=value pairs from line[i:], keys bare or quoted.
func klogPairs(line []byte, i int, f *fields) bool {
	for {
		i = skipSpace(line, i)
		if i >= len(line) {
			return true
		}
		var key []byte
		if line[i] == '"' {
			e, ok := skipString(line, i)
			if !ok || e >= len(line) || line[e] != '=' {
				return ok
			}
			key, i = line[i+1:e-1], e+1
		} else {
			eq := bytes.IndexByte(line[i:], '=')
			if eq <= 0 {
				return true
			}
			key, i = line[i:i+eq], i+eq+1
		}
		if i >= len(line) {
			return true
		}
		switch c := line[i]; {
		case c == '"':
			if f.wants(key) {
				v, n, ok := klogString(line[i:])
				if !ok {
					return false
				}
				f.set(key, v)
				i += n
			} else {
				e, ok := skipString(line, i)
				if !ok {
					return false
				}
				f.noteKeyField(key, line[i+1:e-1])
				i = e
			}
		case c == '[' || c == '{':
			e, ok := skipValue(line, i)
			if !ok {
				return false
			}
			switch {
			case string(key) == "items":
				f.items = line[i:e]
			case string(key) == "reset":
				f.reset = line[i:e]
			case c == '{' && f.ref() == "" && (string(key) == "request" || string(key) == "object" || f.kind != "" && string(key) == f.kind):
				f.setRef(objectRef(line[i:e]))
			}
			i = e
		case c == '<':
			f.set(key, "(multi-line; see the log)")
			return true
		default:
			e := i
			for e < len(line) && line[e] != ' ' {
				e++
			}
			if f.wants(key) {
				f.set(key, string(line[i:e]))
			} else {
				f.noteKeyField(key, line[i:e])
			}
			i = e
		}
	}
}

// callerStem is the file of klog's header (`… 1 controller.go:321`) without
// ".go": it names a controller that logs nothing else to name it by.
func callerStem(head []byte) []byte {
	sp := bytes.LastIndexByte(head, ' ')
	file := head[sp+1:]
	if c := bytes.IndexByte(file, ':'); c >= 0 {
		file = file[:c]
	}
	if !bytes.HasSuffix(file, []byte(".go")) {
		return nil
	}
	return file[:len(file)-3]
}

// callerLine is the line number of the caller that ends head
// (`… 1 controller.go:321`), 0 when it writes none.
func callerLine(head []byte) int {
	c := bytes.LastIndex(head, []byte(".go:"))
	if c < 0 {
		return 0
	}
	n := 0
	for _, b := range head[c+4:] {
		if b < '0' || b > '9' || n > 1e7 {
			return 0
		}
		n = n*10 + int(b-'0')
	}
	return n
}

// klogString reads the Go-quoted string at the start of b; n is its length
// with the quotes.
func klogString(b []byte) (s string, n int, ok bool) {
	e, ok := skipString(b, 0)
	if !ok {
		return "", 0, false
	}
	raw := b[:e]
	if bytes.IndexByte(raw, '\\') < 0 {
		return string(raw[1 : e-1]), e, true
	}
	s, err := strconv.Unquote(string(raw))
	if err != nil {
		return unescape(raw[1 : e-1]), e, true
	}
	return s, e, true
}

// klogTime reads the header's month, day and time in UTC, in the year ref
// gives it (see parseRef): by a clock, the year that puts it closest before
// ref (a log read on 2 January has December lines); by the log's dated
// lines, the year that puts it nearest them.
func klogTime(line []byte, ref parseRef) time.Time {
	t, err := time.Parse("0102 15:04:05.000000", string(line[1:klogHeaderLen]))
	if err != nil {
		return time.Time{}
	}
	r := ref.at.UTC()
	at := time.Date(r.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), time.UTC)
	if !ref.fromLog {
		if at.After(r.Add(24 * time.Hour)) {
			at = at.AddDate(-1, 0, 0)
		}
		return at
	}
	for _, other := range []time.Time{at.AddDate(-1, 0, 0), at.AddDate(1, 0, 0)} {
		if other.Sub(r).Abs() < at.Sub(r).Abs() {
			at = other
		}
	}
	return at
}
