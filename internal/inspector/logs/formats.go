package logs

import (
	"bytes"
	"math"
	"strconv"
	"strings"
	"time"
)

// parseJSON reads a zap JSON line: {"level":..,"ts":..,"msg":..,...}. The
// time is "ts" (epoch seconds, as controller-runtime's --zap-time-encoding=
// epoch and Kubernetes' JSON logs write it, or an ISO 8601 / RFC 3339
// string), or "time"/"timestamp" from other encoders.
func parseJSON(line []byte, f *fields) bool {
	if len(line) > 0 && line[0] == '"' { // its "{" lost (braceLost)
		line = append([]byte{'{'}, line...)
	}
	return eachField(line, 0, f)
}

// braceLost says whether line is a JSON object whose opening "{" a paste
// lost (forklift's `"level":"error","ts":…,"msg":"Reconciler error",…}`,
// the first character of a selection dropped): it opens with a member
// whose value is whole, then a comma and a second member's name. A
// pretty-printed record's member lines (`"msg": "…",`) open the same way,
// but hold one member each: they are not taken for one.
func braceLost(line []byte) bool {
	end, ok := skipString(line, 0)
	if !ok {
		return false
	}
	i := skipSpace(line, end)
	if i >= len(line) || line[i] != ':' {
		return false
	}
	if i, ok = skipValue(line, skipSpace(line, i+1)); !ok {
		return false
	}
	if i = skipSpace(line, i); i >= len(line) || line[i] != ',' {
		return false
	}
	i = skipSpace(line, i+1)
	return i < len(line) && line[i] == '"'
}

// eachField reads the JSON object at line[i] into f. An object cut short
// inside a string value at the line's end is read up to it (cutString). An
// object cut short in
// the value of "errorVerbose" is read up to it: zap writes that member right
// after "error" (zapcore's encodeError: the error's "%+v", a stack trace for
// github.com/pkg/errors' errors), and it is the part of a line a user trims
// by hand before pasting it ("errorVerbose": "…\...}"), with every field
// this package reads already behind it.
func eachField(line []byte, i int, f *fields) bool {
	stop, ok := eachMember(line, i, func(k, v []byte) bool {
		setRaw(f, k, v)
		return true
	})
	if ok {
		f.whole = true
		return true
	}
	const verbose = `"errorVerbose":`
	if j := bytes.LastIndex(line[:stop], []byte(verbose)); j >= i && skipSpace(line, j+len(verbose)) == stop {
		return true
	}
	if cutBetweenMembers(line, i, stop, f) {
		return true
	}
	return cutString(line, i, stop, f)
}

// cutBetweenMembers says whether an object that stopped at stop was cut
// between two members: the line ends right after a member's comma (a
// paste that drops the record's tail — a pretty-printed record's
// "errorVerbose" or "stacktrace" lines and its "}"), every member before
// it whole. It is read only when its key is whole before the cut: one
// member holds it (request, object, a kind-named reference: "/name" says
// cluster-scoped in so many words), or both its namespace and its name
// members were read. A name alone is refused: its namespace, written
// after it, may be what was cut, and the key read would be another.
func cutBetweenMembers(line []byte, i, stop int, f *fields) bool {
	rest := bytes.TrimRight(line[i:], " \t\r\n")
	if stop < i+len(rest) || len(rest) == 0 || rest[len(rest)-1] != ',' {
		return false
	}
	return f.ref() != "" || f.name != "" && f.namespace != ""
}

// cutString reads an object whose line ends inside a string value (a
// paste's window, or a stored text broken in a long error): the members
// before it were read, and the cut value is read up to the line's end, as
// far as it goes ("error": "… is invalid: [status…"), unless it is one that
// names the key or the controller. stop is where the
// scan stopped, at the value's opening quote.
func cutString(line []byte, i, stop int, f *fields) bool {
	if stop >= len(line) || line[stop] != '"' {
		return false
	}
	if _, closed := skipString(line, stop); closed {
		return false // malformed elsewhere, not cut
	}
	// The member's name before the cut value: "NAME" : "… — each search
	// checked before the next slices by it (a line with no colon, or no
	// quoted name, before the value is no member: not cut, malformed).
	colon := bytes.LastIndexByte(line[i:stop], ':')
	if colon < 0 {
		return false
	}
	colon += i
	keyEnd := bytes.LastIndexByte(line[i:colon], '"')
	if keyEnd < 0 {
		return false
	}
	keyEnd += i
	keyStart := bytes.LastIndexByte(line[i:keyEnd], '"')
	if keyStart < 0 {
		return false
	}
	keyStart += i
	if len(bytes.TrimSpace(line[keyEnd+1:colon])) > 0 {
		return false
	}
	switch key := line[keyStart+1 : keyEnd]; string(key) {
	case "error", "err", "msg", "message", "reason":
	default:
		if f.wants(key) {
			// A name, a key or a controller cut short is another one.
			return false
		}
	}
	val := bytes.TrimRight(line[stop:], " \t\r\n")
	// A cut escape: drop a backslash that escapes nothing.
	if n := len(val) - len(bytes.TrimRight(val, `\`)); n%2 == 1 {
		val = val[:len(val)-1]
	}
	setRaw(f, line[keyStart+1:keyEnd], append(bytes.Clone(val), '"'))
	return true
}

// setRaw records one JSON member. An object value with a "name" is a
// klog.ObjectRef: the kind-named reference of controllers built with For().
func setRaw(f *fields, k, v []byte) {
	fk := fieldKeyOf(k)
	switch fk {
	case fkTs, fkTime, fkTimestamp:
		f.timeKey = timeKeys[fk-fkTs] // a constant: no copy of the line
		f.at = f.intern.time(v, timeValue)
		f.timeRaw, f.times = v, f.times+1
	case fkItems:
		f.items = v
	case fkReset:
		f.reset = v
	case fkLevel:
		f.severe, f.leveled = f.severe || severeLevel(v), true
	case fkSkipped:
		// skipped unread: the stack trace is most of an error line's bytes;
		// of the caller, only its directory (callerfield.go)
		if len(k) == len("caller") {
			f.callerPkg = callerPkgOf(bytes.Trim(v, `"`))
		}
	default:
		switch fk {
		case fkReconcileID:
			f.idRaw, f.ids = v, f.ids+1
		case fkName:
			f.nameRaw, f.names = v, f.names+1
		}
		if len(v) > 0 && v[0] == '{' {
			if f.ref() == "" {
				f.refObj = v // read when asked for (fields.ref)
			}
			if kindLike(k) {
				f.kindObj, f.kindObjRaw, f.kindObjs = k, v, f.kindObjs+1
			}
			return
		}
		if fk.kept() || f.kind != "" && string(k) == f.kind {
			f.setKey(fk, k, f.intern.jsonString(fk, v))
		} else if len(v) > 2 && v[0] == '"' {
			f.noteKeyField(k, v[1:len(v)-1])
		}
	}
}

// timeKeys are the names of fkTs, fkTime and fkTimestamp.
var timeKeys = [...]string{"ts", "time", "timestamp"}

// timeValue reads a JSON time value: a string (parseTime) or a number of
// seconds (epoch).
func timeValue(v []byte) time.Time {
	if n := len(v); n >= 2 && v[0] == '"' && v[n-1] == '"' && bytes.IndexByte(v[1:n-1], '\\') < 0 {
		// Its text as it is (jsonString's answer): parseTime keeps no
		// copy of it, so the string is made on the stack, not on the heap
		// once a line (a third of a read's allocations).
		return parseTime(string(v[1 : n-1]))
	}
	if len(v) > 0 && v[0] == '"' {
		return parseTime(jsonString(v))
	}
	return epoch(v)
}

// objectRef reads {"name":..,"namespace":..} as "namespace/name".
func objectRef(v []byte) string {
	var ns, name string
	eachMember(v, 0, func(k, val []byte) bool {
		switch string(k) {
		case "name", "Name": // klog.ObjectRef; a reconcile.Request as klogr wrote it
			name = jsonString(val)
		case "namespace", "Namespace":
			ns = jsonString(val)
		}
		return true
	})
	if name == "" || ns == "" {
		return name
	}
	return ns + "/" + name
}

// epoch reads a number of seconds since 1970. Larger numbers are read as
// milliseconds, microseconds or nanoseconds, which some encoders write.
func epoch(v []byte) time.Time {
	x, err := strconv.ParseFloat(string(v), 64)
	if err != nil || x <= 0 || math.IsInf(x, 0) || math.IsNaN(x) {
		return time.Time{}
	}
	for x > 1e11 { // past the year 5138 in seconds: a finer unit
		x /= 1000
	}
	// A float64 of seconds since 1970 holds about a quarter microsecond:
	// finer digits are noise.
	sec, frac := math.Modf(x)
	return time.Unix(int64(sec), int64(math.Round(frac*1e6))*1e3).UTC()
}

// timeLayouts are the string timestamps zap and logr encoders write.
var timeLayouts = []string{
	time.RFC3339Nano,                  // RFC3339(Nano)TimeEncoder, controller-runtime's default
	"2006-01-02T15:04:05.000Z0700",    // ISO8601TimeEncoder, zap's production default
	"2006-01-02T15:04:05.999999Z0700", // klog JSON and others
	"2006-01-02 15:04:05.999999999Z07:00",
	"2006-01-02 15:04:05.999999999", // a layout with a space and no zone (batch9/908), read as UTC as zap console's is
}

// parseTime reads a string timestamp; zero when none of timeLayouts fits.
func parseTime(s string) time.Time {
	for _, l := range timeLayouts {
		if t, err := time.Parse(l, s); err == nil {
			if t.IsZero() {
				// Go's zero time, written out (0001-01-01T00:00:00Z): a time
				// the line states, and one that cannot be true; kept apart
				// from "no time" so that the reader says so (times.go).
				return t.Add(time.Nanosecond)
			}
			return t
		}
	}
	if _, err := strconv.ParseFloat(s, 64); err == nil {
		return epoch([]byte(s))
	}
	return time.Time{}
}

// consoleMessages are the messages a console line is searched for:
// controller-runtime's first, then the other families' only before where
// one of those was found (the head of the line is short), so that the
// common line is not scanned once per message of every family. A regexp
// line (the kubelet's) has no text to search for: a line it reads is
// found by its separators.
var consoleMessages, otherConsoleMessages = func() (cr, other [][]byte) {
	for i, d := range builtins {
		for _, l := range d.Lines {
			if l.Regexp != nil {
				continue
			}
			if i == 0 {
				cr = append(cr, []byte(l.Text))
			} else {
				other = append(other, []byte(l.Text))
			}
		}
	}
	return cr, other
}()

// parseConsole reads a zap console line: TIME LEVEL [LOGGER] [CALLER] MSG
// {JSON context}, separated by tabs (or spaces, once copied through a
// terminal). The time may be missing when the kubelet's prefix gave one, or
// when the encoder was told to write none. A line whose message no dialect
// names is read by its separators (consoleFields), whatever its message.
func parseConsole(line []byte, f *fields) bool {
	// The message is the first one on the line (an error's text may quote
	// another); at one place, the longest.
	at, msgEnd := -1, -1
	for _, m := range consoleMessages {
		if i := bytes.Index(line, m); i >= 0 && (at < 0 || i < at || i == at && i+len(m) > msgEnd) {
			at, msgEnd = i, i+len(m)
		}
	}
	head := line
	if at >= 0 {
		head = line[:at]
	}
	for _, m := range otherConsoleMessages {
		if i := bytes.Index(head, m); i >= 0 && (at < 0 || i < at || i == at && i+len(m) > msgEnd) {
			at, msgEnd = i, i+len(m)
		}
	}
	if at < 0 {
		// A message no dialect names: the line read by its shape.
		return consoleFields(line, f)
	}
	brace := bytes.IndexByte(line[msgEnd:], '{')
	if brace < 0 {
		return false
	}
	f.msg = string(bytes.TrimSpace(line[at : msgEnd+brace]))
	// zap's EncoderConfig.ConsoleSeparator, when set, stands where its
	// tabs would (`TIME | LEVEL | LOGGER | MSG | {…}`): a word of its own,
	// at the message's end too.
	if strings.HasSuffix(f.msg, " |") {
		f.msg = strings.TrimSpace(f.msg[:len(f.msg)-1])
	}
	// Before the message: the time, the level, the logger name, the caller
	// (file:line), each there or not.
	words := bytes.Fields(line[:at])
	for i, h := range words {
		switch {
		case string(h) == "|":
		case i == 0 && looksLikeTime(h):
			f.at = parseTime(string(h))
		case i == 1 && len(words[0]) == 10 && looksLikeTime(words[0]) && len(h) >= 8 && h[2] == ':':
			// "2017-09-26 19:50:06.716": a layout with a space
			// (zapcore.TimeEncoderOfLayout), read as parsePlain reads it.
			f.at = parseTime(string(words[0]) + "T" + string(h) + "Z")
		case isLevel(h):
			f.severe, f.leveled = f.severe || severeLevel(h), true
		case bytes.Contains(h, []byte(".go:")):
			f.callerPkg = callerPkgOf(h) // before the fields: callerfield.go
		default:
			f.logger = string(h)
		}
	}
	return eachField(line, msgEnd+brace, f)
}

// isLevel says whether w is a level as zap's console encoder writes it.
func isLevel(w []byte) bool {
	switch string(w) {
	case "DEBUG", "INFO", "WARN", "ERROR", "DPANIC", "PANIC", "FATAL", "debug", "info", "warn", "error", "dpanic", "panic", "fatal":
		return true
	}
	return bytes.HasPrefix(w, []byte("Level(")) || bytes.HasPrefix(w, []byte("LEVEL("))
}
