package logs

import (
	"bytes"
	"encoding/json"
	"strings"
	"time"
)

// format is the shape of a log line once what collected it is taken off.
type format uint8

const (
	// fmtConsole is zap's console encoder: TIME LEVEL LOGGER MSG {JSON}.
	// It is also the fallback for a line no other format fits.
	fmtConsole format = iota
	// fmtJSON is one JSON object: zap, slog's JSONHandler, logrus' JSON.
	fmtJSON
	// fmtKlog is klog's text: a header, then "msg" key=value (klog
	// structured), "msg"="…" "key"=value (klogr before v2), or bare text.
	fmtKlog
	// fmtLogfmt is key=value from the start: slog's TextHandler, logrus'
	// text formatter, go-kit log.
	fmtLogfmt
	// fmtLogrus is logrus' terminal form: ERRO[0012] msg   key=value.
	fmtLogrus
	// fmtPlain is text no other format reads, with a time, a level tag or
	// a caller before its message: Go's standard log, bracketed levels,
	// zap console with a message no dialect names (plaintext.go).
	fmtPlain
)

// formatNames name the formats in the diagnostics.
var formatNames = [...]string{"zap console", "JSON", "klog text", "logfmt", "logrus text", "plain text"}

// maxPrefixWords is how many words before the line proper are skipped in
// search of it: stern's "POD CONTAINER", a container name, the CRI's
// "stderr F", journald's "Jul 26 12:42:26 HOST PROC[PID]:" behind grep -n's "FILE:LINE:".
const maxPrefixWords = 8

// split takes off what collecting the logs put before a line: kubectl's
// --prefix ("[pod/NAME/CONTAINER] "), a timestamp (kubectl --timestamps,
// the kubelet's CRI files), and up to maxPrefixWords words before a line
// of a known format. at is the first timestamp taken off (zero if none);
// words is how many words were skipped to find the line. line is
// collected's: what a TTY or Docker put around it is off already.
func split(line []byte) (at time.Time, body []byte, fm format, words int) {
	line = trimPodPrefix(line)
	at, line = kubeletTime(line)
	body = line
	if fm, ok := detect(line); !ok || fm == fmtConsole {
		if col, n, ok := exportColumn(line); ok {
			fm, _ := detect(col)
			if at.IsZero() {
				// The store's time of the line, in RFC 3339 (not zap
				// console's, which exportColumn leaves alone).
				tab := bytes.IndexByte(line, '\t')
				at, _ = time.Parse(time.RFC3339Nano, string(line[:tab]))
			}
			return at, col, fm, n
		}
	}
	for {
		fm, ok := detect(body)
		if !ok || fm == fmtConsole {
			if k, n, glued := gluedKlog(body); glued {
				return at, k, fmtKlog, words + n
			}
		}
		if ok {
			return at, body, fm, words
		}
		if words == maxPrefixWords {
			break
		}
		sp := bytes.IndexByte(body, ' ')
		if sp < 0 {
			break
		}
		body = body[skipSpace(body, sp):]
		words++
		if at.IsZero() {
			// A timestamp after a word (the CRI's, after stern's names).
			if t, rest := kubeletTime(body); !t.IsZero() {
				at, body = t, rest
			}
		}
	}
	return at, line, fmtConsole, 0
}

// gluedKlog is the klog line a log viewer's time was written against, no
// space between: Rancher's container log view copies "14.12.2017
// 16:05:05" then the line (batch22/2207: "16:05:05E1214 15:05:05.466708
// …"), its 1.x view "4/28/2016 9:29:37 AM" ("AME0428 16:29:37.103725"):
// the first or second word ends with a klog header's level and date. n
// is the words it takes off. Tried before detect, which reads a date of
// digits and dots as a console time (split asks when detect finds none
// or a console line).
func gluedKlog(body []byte) (k []byte, n int, ok bool) {
	for n = 1; n <= 2 && len(body) > 0; n++ {
		w := firstWord(body)
		if len(w) > 5 && isKlog(body[len(w)-5:]) {
			return body[len(w)-5:], n, true
		}
		if len(w) == len(body) {
			break
		}
		body = body[skipSpace(body, len(w)):]
	}
	return nil, 0, false
}

// detect says which format line starts with, if any.
func detect(line []byte) (format, bool) {
	switch {
	case len(line) == 0:
		return 0, false
	case line[0] == '{', line[0] == '"' && braceLost(line):
		return fmtJSON, true
	case isKlog(line):
		return fmtKlog, true
	case bytes.HasPrefix(line, []byte("time=")), bytes.HasPrefix(line, []byte("level=")), bytes.HasPrefix(line, []byte("ts=")):
		return fmtLogfmt, true
	case isLogrus(line):
		return fmtLogrus, true
	case looksLikeTime(firstWord(line)), isLevel(firstWord(line)):
		return fmtConsole, true
	case line[0] == '[' && pythonLineStart(line):
		return fmtPlain, true
	}
	return 0, false
}

// firstWord is line up to its first space or tab.
func firstWord(line []byte) []byte {
	if i := bytes.IndexAny(line, " \t"); i >= 0 {
		return line[:i]
	}
	return line
}

// looksLikeTime says whether w is shaped like a timestamp a logger writes
// first: ISO 8601 (2024-01-02T…) or epoch seconds (1.6523912325494506e+09).
func looksLikeTime(w []byte) bool {
	if len(w) >= 10 && digits(w[:4]) && w[4] == '-' && w[7] == '-' {
		return true
	}
	if len(w) < 10 || w[0] < '1' || w[0] > '9' {
		return false
	}
	for _, c := range w {
		if (c < '0' || c > '9') && c != '.' && c != 'e' && c != '+' {
			return false
		}
	}
	return true
}

// exportColumn finds the log line in a log store's tab-separated export
// (a time, the pod, the container, the stream…, then the line as the
// program wrote it: Loki's and Grafana's downloads, `kubectl logs` piped
// through column tools): the first column after a tab that starts a
// format other than zap console's. n is the columns skipped. A line whose
// columns before hold a level word is zap console's own tab-separated
// encoding (TIME LEVEL LOGGER MSG {FIELDS}), whose last column is its
// fields, not a line.
func exportColumn(line []byte) (col []byte, n int, ok bool) {
	rest := line
	for n = 1; n <= maxPrefixWords; n++ {
		tab := bytes.IndexByte(rest, '\t')
		if tab < 0 || isLevel(bytes.TrimSpace(rest[:tab])) {
			return nil, 0, false
		}
		rest = rest[skipSpace(rest, tab):]
		if fm, ok := detect(rest); ok && fm != fmtConsole {
			return rest, n, true
		}
	}
	return nil, 0, false
}

// trimPodPrefix drops kubectl logs --prefix's "[pod/NAME/CONTAINER] ".
func trimPodPrefix(line []byte) []byte {
	if bytes.HasPrefix(line, []byte("[pod/")) {
		if i := bytes.Index(line, []byte("] ")); i > 0 {
			return line[i+2:]
		}
	}
	return line
}

// kubeletTime splits off the RFC 3339 timestamp the kubelet puts before each
// line when asked (timestamps=true), followed by one space.
func kubeletTime(line []byte) (time.Time, []byte) {
	if len(line) < 21 || line[4] != '-' || line[10] != 'T' {
		return time.Time{}, line
	}
	sp := bytes.IndexByte(line[:min(len(line), 40)], ' ')
	if sp < 0 {
		return time.Time{}, line
	}
	t, err := time.Parse(time.RFC3339Nano, string(line[:sp]))
	if err != nil {
		return time.Time{}, line
	}
	return t, criTag(line[sp+1:])
}

// criTag drops the stream and tag the kubelet's CRI log files write after
// the time ("stderr F ", "stdout P "): the line follows, whatever its format.
func criTag(rest []byte) []byte {
	if len(rest) > 9 && rest[6] == ' ' && (rest[7] == 'F' || rest[7] == 'P') && rest[8] == ' ' &&
		(bytes.HasPrefix(rest, []byte("stderr")) || bytes.HasPrefix(rest, []byte("stdout"))) {
		return rest[9:]
	}
	return rest
}

// stripANSI drops the terminal's color codes (ESC [ … letter) that a
// logger writing to a TTY puts in its lines (logrus' ERRO in red): a log
// captured from a container with a TTY keeps them.
func stripANSI(line []byte) []byte {
	out := make([]byte, 0, len(line))
	for i := 0; i < len(line); i++ {
		if line[i] == 0x1b && i+1 < len(line) && line[i+1] == '[' {
			j := i + 2
			for j < len(line) && (line[j] < 0x40 || line[j] > 0x7e) {
				j++
			}
			i = j
			continue
		}
		out = append(out, line[i])
	}
	return out
}

// dockerPrefix opens a line of Docker's json-file log driver (the files
// under /var/lib/docker/containers, and a node's /var/log/containers on
// Docker before the CRI): the program's line, JSON-quoted, under "log".
var dockerPrefix = []byte(`{"log":"`)

// collected is line as the program wrote it, what a TTY's colour codes, a
// paste (pasted) and Docker's json-file driver put around it taken off: the driver's line
// becomes its time, RFC 3339 as the kubelet's, a space and the program's
// line, which split reads as a `kubectl logs --timestamps` line. Every
// reading of a line starts here (parseAll, lineAt).
func collected(line []byte) []byte {
	if bytes.IndexByte(line, 0x1b) >= 0 {
		line = stripANSI(line)
	}
	line = pasted(line)
	if !bytes.HasPrefix(line, dockerPrefix) {
		return line
	}
	var d struct {
		Log  string `json:"log"`
		Time string `json:"time"`
	}
	if json.Unmarshal(line, &d) != nil {
		return line
	}
	out := strings.TrimRight(d.Log, "\r\n")
	if _, err := time.Parse(time.RFC3339Nano, d.Time); err == nil {
		out = d.Time + " " + out
	}
	return []byte(out)
}

// pasted takes off, in the exact shapes they are written, the words a
// Markdown quote ("> ", batch 4's 302, batch 10's 227), journald ("Jul 31
// 19:24:54 HOST PROC[PID]: ", batch 10's 204) and stern ("POD CONTAINER ",
// batch 8's 800) put before a line, whatever its format: split skips words
// only before a format it detects, and a line of Go's standard log, of
// Python's logging or of plain text has none it detects.
func pasted(line []byte) []byte {
	line = inlineCode(quoteOff(line))
	if rest, ok := journaldHeader(line); ok {
		return rest
	}
	if rest, ok := sternNames(line); ok {
		return rest
	}
	return line
}

// quoteOff is line out of a Markdown quote: its "> " (or ">" on a blank
// line of the quote) taken off, each level of a nested one. The joiner
// reads a quoted record's pieces through it too (multiline.go).
func quoteOff(line []byte) []byte {
	for len(line) > 0 && line[0] == '>' {
		switch {
		case len(line) == 1:
			return line[1:]
		case line[1] == ' ':
			line = line[2:]
		default:
			return line
		}
	}
	return line
}

// journaldHeader is line after journalctl's "Mmm DD HH:MM:SS HOST
// PROC[PID]: " (short, the default output), if it opens with one.
func journaldHeader(line []byte) ([]byte, bool) {
	// "Jul 31 19:24:54 ": a month, a day padded to two, a time.
	if len(line) < 20 || line[0] < 'A' || line[0] > 'Z' || line[3] != ' ' || line[6] != ' ' ||
		line[9] != ':' || line[12] != ':' || line[15] != ' ' || !digits(line[7:9]) || !digits(line[13:15]) {
		return line, false
	}
	rest := line[16:]
	host := bytes.IndexByte(rest, ' ')
	if host <= 0 {
		return line, false
	}
	proc := rest[host+1:]
	end := bytes.Index(proc[:min(len(proc), 64)], []byte("]: "))
	if end <= 0 || bytes.IndexByte(proc[:end], ' ') >= 0 || bytes.IndexByte(proc[:end], '[') <= 0 {
		return line, false
	}
	return proc[end+3:], true
}

// sternNames is line after stern's "POD CONTAINER " when its first word
// is a Deployment's pod (NAME-HASH-XXXXX) and what follows the container
// opens a line (a time, a bracket, a JSON object), or after "POD " alone
// when a time follows it: a sentence that starts with a pod's name is no
// collector's prefix.
func sternNames(line []byte) ([]byte, bool) {
	if len(line) == 0 || (line[0] < 'a' || line[0] > 'z') && (line[0] < '0' || line[0] > '9') {
		return line, false // the cheap test first: every line parsed comes here
	}
	pod := bytes.IndexByte(line[:min(len(line), 254)], ' ')
	if pod < 0 || !deploymentPod(line[:pod]) {
		return line, false
	}
	rest := line[pod+1:]
	ctr := bytes.IndexByte(rest[:min(len(rest), 64)], ' ')
	if ctr > 0 && looksLikeTime(rest[:ctr]) {
		// "POD TIME …": the pod's name alone before the line (a date is
		// no container's name: batch18/1800's Java layout).
		return rest, true
	}
	if ctr <= 0 || !dnsLabel(rest[:ctr]) || ctr+1 >= len(rest) {
		return line, false
	}
	rest = rest[ctr+1:]
	if c := rest[0]; (c < '0' || c > '9') && c != '[' && c != '{' {
		return line, false
	}
	return rest, true
}

// deploymentPod says whether w is shaped as a Deployment's pod name: a
// name, the ReplicaSet's hash (6 to 10) and the pod's suffix (5).
func deploymentPod(w []byte) bool {
	i := bytes.LastIndexByte(w, '-')
	if i < 0 || len(w)-i-1 != 5 || !dnsLabel(w[i+1:]) {
		return false
	}
	j := bytes.LastIndexByte(w[:i], '-')
	return j > 0 && i-j-1 >= 6 && i-j-1 <= 10 && dnsLabel(w[j+1:i]) && dnsLabel(w[:j])
}

// dnsLabel says whether w is lower-case letters, digits and dashes.
func dnsLabel(w []byte) bool {
	for _, c := range w {
		if (c < 'a' || c > 'z') && (c < '0' || c > '9') && c != '-' {
			return false
		}
	}
	return len(w) > 0
}
