package logs

import (
	"bytes"
	"strings"
	"time"
)

// Python's logging module, as operators written with kopf and others
// configure it, brackets what Go's loggers leave bare: the time, then a
// logger name, then the level padded to its column, then (kopf) the
// object as [namespace/name] —
//
//	[2020-09-04 08:16:44,581] kopf.objects         [ERROR   ] [None/clustersecret3] Handler 'namespace_watcher' failed with an exception. Will retry.
//
// parsePlain reads these with the helpers here, and the generic reader
// the message as any other's.

// bracketTime reads a bracketed time at the line's start, "[2020-09-04
// 08:16:44,581]" (a comma or a dot before the fraction), in UTC: the
// line does not name its zone. n is its length with the spaces after
// it, 0 when the line has none.
func bracketTime(b []byte) (time.Time, int) {
	if len(b) < 21 || b[0] != '[' || b[5] != '-' || b[8] != '-' || b[11] != ' ' || b[14] != ':' || b[17] != ':' {
		return time.Time{}, 0
	}
	e := bytes.IndexByte(b, ']')
	if e < 20 || e > 40 {
		return time.Time{}, 0
	}
	t, err := time.Parse("2006-01-02 15:04:05", string(b[1:20]))
	if err != nil {
		return time.Time{}, 0
	}
	if frac := b[20:e]; len(frac) > 1 && (frac[0] == ',' || frac[0] == '.') && digits(frac[1:]) {
		if d, err := time.ParseDuration("0." + string(frac[1:]) + "s"); err == nil {
			t = t.Add(d)
		}
	} else if len(frac) > 0 {
		return time.Time{}, 0
	}
	n := e + 1
	for n < len(b) && (b[n] == ' ' || b[n] == '\t') {
		n++
	}
	return t, n
}

// pythonLineStart says whether line opens with Python logging's bracketed
// time, so that what a collector wrote before it (stern's "POD CONTAINER",
// a container name) is taken off as before any other format's line: batch
// 11's 1102, kopf's line behind stern's names.
func pythonLineStart(line []byte) bool {
	_, n := bracketTime(line)
	return n > 0
}

// loggerBeforeTag is the logger name between a bracketed time and a
// bracketed level ("kopf.objects         [ERROR   ]"): one word, then
// a level tag. n is its length with the spaces after it, 0 when rest
// opens with no such word.
func loggerBeforeTag(rest []byte) ([]byte, int) {
	w := firstWord(rest)
	if len(w) == 0 || w[0] == '[' || bytes.Contains(w, []byte(".go")) {
		return nil, 0
	}
	n := len(w)
	for n < len(rest) && (rest[n] == ' ' || rest[n] == '\t') {
		n++
	}
	if n == len(w) || n >= len(rest) || rest[n] != '[' {
		return nil, 0
	}
	e := bytes.IndexByte(rest[n:], ']')
	if e < 0 || !levelTag(rest[n+1:n+e]) {
		return nil, 0
	}
	return w, n
}

// levelTag says whether a bracketed tag is a level, padded to its column
// or not ("ERROR   ", "WARNING").
func levelTag(tag []byte) bool {
	tag = bytes.TrimSpace(tag)
	return isLevel(tag) || severeLevel(bytes.ToLower(tag)) || isLevel(bytes.ToUpper(tag)) || quietTag(tag)
}

// quietTag says whether a bracketed tag is a level below warning that
// zap's names lack: whereabouts' own logger writes "[verbose]" (its info)
// beside "[debug]" and "[error]" (batch21/2111), logging libraries of
// other languages "[TRACE]". Read as a level, it is taken off the message
// (which then opens with its own words) and is not severe.
func quietTag(tag []byte) bool {
	switch string(bytes.ToLower(tag)) {
	case "verbose", "trace":
		return true
	}
	return false
}

// pythonNone is how a Python operator (kopf) writes a cluster-scoped
// object's missing namespace in its [namespace/name] prefix: Python's
// None. "None/x" is then the key x, not a namespace "None" (which no
// namespace can be: namespaces are lowercase).
const pythonNone = "None/"

// bracketKeyError is the error of a message that opens with its key in
// brackets and states it after, with no ": " ("[ns/x] Handler 'h' failed
// with an exception. Will retry."): what follows the bracket. keyEnd is
// where the key ends in msg; ok is false for any other shape.
func bracketKeyError(msg string, keyEnd int) (string, bool) {
	open := strings.IndexByte(msg, '[')
	if open < 0 || strings.TrimSpace(msg[:open]) != "" || keyEnd >= len(msg) || msg[keyEnd] != ']' || strings.Contains(msg[:keyEnd], "]") {
		return "", false
	}
	rest := strings.TrimSpace(msg[keyEnd+1:])
	return rest, rest != ""
}
