package logs

import (
	"bytes"
	"time"
)

// parsePlain reads a line no structured format reads as plain text: the
// message is what follows the time, a level tag and a caller, each there
// or not. These are Go's standard log (`2018/09/04 16:00:22 msg`, no
// level), the bracketed tags of Rancher's and Calico's loggers
// (`2021/09/08 16:20:28 [ERROR] msg`, `2017-09-26 19:50:06.716
// [WARNING][1] cache.go 246: msg`), klog's line with its header cut
// before the thread id (`1 controller.go:135] msg`), and zap's console encoder with a
// message no dialect names whose separators consoleFields did not find
// (TIME LEVEL [LOGGER] CALLER MSG {JSON}): the
// generic reader reads their messages as it reads any other's. A line
// with none of time, level or caller is read only as a bare message, in
// the generic reader's strictest shape: without one of them the "message"
// could be anything (a shell prompt, a stack frame).
func parsePlain(line []byte, f *fields) bool {
	rest := bytes.TrimSpace(line)
	seen := false
	t, n := stdlogTime(rest)
	stdlog := n > 0
	if stdlog {
		f.at, rest, seen = t, bytes.TrimLeft(rest[n:], " "), true
		if len(rest) > 0 && rest[0] == '"' && startsPair(rest) {
			// A logr sink over Go's log (stdr): pairs, not text.
			return stdlogPairs(rest, f)
		}
	} else if bt, bn := bracketTime(rest); bn > 0 {
		// Python's logging: [time] logger [LEVEL   ] (bracketed.go).
		f.at, rest, seen = bt, rest[bn:], true
		if lg, ln := loggerBeforeTag(rest); ln > 0 {
			f.logger, rest = string(lg), rest[ln:]
		}
	} else if w := firstWord(rest); looksLikeTime(w) {
		rest, seen = bytes.TrimLeft(rest[len(w):], " \t"), true
		// "2017-09-26 19:50:06.716": a date, then its time; zap's console
		// encoder writes its tab after it (a layout with a space:
		// zapcore.TimeEncoderOfLayout, then ConsoleSeparator).
		if t := firstWord(rest); len(w) == 10 && len(t) >= 8 && t[2] == ':' {
			w = []byte(string(w) + "T" + string(t) + "Z")
			rest = bytes.TrimLeft(rest[len(t):], " \t")
		}
		f.at = parseTime(string(w))
	}
	levelSeen := false
	// The level: a bracketed tag (with a [pid] after it), or zap's word.
	for len(rest) > 0 && rest[0] == '[' {
		e := bytes.IndexByte(rest, ']')
		if e < 0 {
			break
		}
		tag := bytes.TrimSpace(rest[1:e]) // padded to its column: "[ERROR   ]"
		if isLevel(tag) || severeLevel(bytes.ToLower(tag)) || digits(tag) || isLevel(bytes.ToUpper(tag)) || quietTag(tag) {
			f.severe = f.severe || severeLevel(bytes.ToLower(tag))
			levelSeen = levelSeen || !digits(tag)
			f.leveled = f.leveled || !digits(tag)
			rest, seen = bytes.TrimLeft(rest[e+1:], " \t"), true
			continue
		}
		break
	}
	// A bare level word only where zap's console encoder writes it, not
	// after Go's log header or a tag, where "error syncing" is a message.
	if w := firstWord(rest); len(w) > 0 && isLevel(w) && !levelSeen && !stdlog {
		f.severe = f.severe || severeLevel(bytes.ToLower(w))
		rest, seen, levelSeen = bytes.TrimLeft(rest[len(w):], " \t"), true, true
		f.leveled = true
	}
	// Java's layouts: a class name, a level and a thread, in their order
	// (javalayout.go).
	if seen && !stdlog {
		if m := javaHeader(rest, f); len(m) != len(rest) {
			rest, levelSeen = m, levelSeen || f.leveled
		}
	}
	// zap console: tab-separated; a logger name, then the caller.
	if tab := bytes.IndexByte(rest, '\t'); tab > 0 && seen {
		parts := bytes.SplitN(rest, []byte("\t"), 4)
		for len(parts) > 1 && !bytes.Contains(parts[0], []byte(" ")) {
			if bytes.Contains(parts[0], []byte(".go:")) {
				f.caller = callerStem(parts[0])
			} else if f.logger == "" {
				f.logger = string(parts[0])
			}
			rest = bytes.Join(parts[1:], []byte("\t"))
			parts = parts[1:]
		}
	}
	// klog's header cut off before its thread id (a paste's tail, or
	// prose quoting a line: `"1 controller.go:135] msg"`): the caller
	// follows.
	if w := firstWord(bytes.TrimLeft(rest, `"`)); !seen && digits(w) {
		after := bytes.TrimLeft(bytes.TrimLeft(rest, `"`)[len(w):], " ")
		if c := firstWord(after); bytes.Contains(c, []byte(".go:")) && bytes.HasSuffix(c, []byte("]")) {
			rest = after
		}
	}
	// A caller: "file.go:123 " or Calico's "file.go 246: ".
	if w := firstWord(rest); bytes.HasSuffix(w, []byte(".go")) || bytes.Contains(w, []byte(".go:")) {
		if c := callerStem(w); len(c) > 0 {
			f.caller = c
		}
		rest = bytes.TrimLeft(rest[len(w):], " ")
		if n := firstWord(rest); bytes.HasSuffix(n, []byte(":")) && digits(n[:len(n)-1]) {
			rest = bytes.TrimLeft(rest[len(n):], " ")
		}
		seen = true
	}
	if !seen {
		// A message alone (a paste of its text, an inline code span): no
		// time, level or caller to tell it from a shell prompt or a stack
		// frame, so only the generic reader's strictest shape reads it
		// (fields.bare).
		rest = bytes.Trim(rest, "`")
		if len(rest) == 0 || !f.bareOK(rest) {
			return false
		}
		f.bare, f.noLevel = true, true
		f.msg = string(rest)
		return true
	}
	if len(rest) == 0 {
		return false
	}
	f.noLevel = !levelSeen
	// Trailing JSON fields (zap console).
	if i := bytes.Index(rest, []byte("\t{")); i >= 0 && rest[len(rest)-1] == '}' {
		if !eachField(rest, i+1, f) {
			return false
		}
		rest = rest[:i]
	} else if i := spacedFields(rest); i >= 0 {
		eachField(rest, i, f)
		rest = rest[:i]
	}
	rest = bytes.TrimSpace(rest)
	if line := bytes.TrimSpace(line); line[0] == '"' && rest[len(rest)-1] == '"' && bytes.Count(rest, []byte(`"`))%2 == 1 {
		// The line quoted whole (prose quoting a log line): its closing
		// quote is not the message's.
		rest = rest[:len(rest)-1]
	}
	f.msg = string(rest)
	return true
}

// stdlogTime reads Go's standard log header, "2018/09/04 16:00:22" (with
// log.Lmicroseconds, ".000000" after it), in UTC: the log package writes
// local time, which the line does not name. n is its length, 0 when the
// line has none.
func stdlogTime(b []byte) (time.Time, int) {
	if len(b) < 19 || b[4] != '/' || b[7] != '/' || b[10] != ' ' || b[13] != ':' || b[16] != ':' {
		return time.Time{}, 0
	}
	n := 19
	for n < len(b) && (b[n] == '.' || b[n] >= '0' && b[n] <= '9') {
		n++
	}
	t, err := time.Parse("2006/01/02 15:04:05", string(b[:19]))
	if err != nil {
		return time.Time{}, 0
	}
	if n > 20 {
		if frac, err := time.ParseDuration("0" + string(b[19:n]) + "s"); err == nil {
			t = t.Add(frac)
		}
	}
	return t, n
}

// bareOK says whether a line with no time, level or caller may be a bare
// message: it opens with a letter or a quote (not a frame's tab, a
// prompt's $ or #, a path's /), and holds an error after ": ".
func (f *fields) bareOK(line []byte) bool {
	c := line[0]
	return (c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == '"') && bytes.Contains(line, []byte(": "))
}
