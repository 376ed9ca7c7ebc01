package logs

import (
	"bytes"
	"strings"
	"time"
)

// Some handlers report a failure through client-go's HandleError with an
// error that names the object by its kind and name but not its namespace,
// and the key nowhere: nats-io/nack's processQueueNext logs
// `"Unhandled Error" err="failed to process stream: failed to update
// stream \"X\": …"` and requeues the key. The controller's event recorder
// wrote the object just before, in the same attempt:
// `event.go:377] Event(v1.ObjectReference{Kind:"Stream",
// Namespace:"preview", Name:"X", …}): type: 'Normal' reason: 'Updating' …`
// (or, structured, `"Event occurred" object="preview/X" … kind="Stream"`).
// A failure line that names no key takes that object's key when three
// things agree: the event line is at most eventWindow lines before it, the
// failure's message writes the event's kind and name as Go errors name an
// object (`stream "X"`, the kind in lower case, the name quoted) — or
// writes the same kind-and-quoted-name the event's own message writes (the
// object's name in the system it drives: nack's Consumer
// t03/nats-back-front-consumer-event logs `Creating consumer
// "event-consumer" on stream …`, and its failure `failed to create
// consumer "event-consumer" on stream …`) — and no other event line in
// that window named another object. An event alone, or a name quoted
// after another word, names no key.

// eventWindow is how many lines after its event line a failure may be to
// take its object's key: the event and the failure of one attempt are
// logged together.
const eventWindow = 3

// eventObject is the object an event recorder's klog line names: its
// kind, namespace and name; ok is false for any other line. Only a line
// whose klog header names event.go is searched further, so the search of
// the line's head is all most lines cost.
func eventObject(line []byte) (kind, ns, name, says string, ok bool) {
	i := eventCaller(line[:min(len(line), eventHead)])
	if i < 0 {
		return "", "", "", "", false
	}
	if bytes.HasPrefix(line, dockerPrefix) {
		// The event as the program wrote it, not JSON-quoted by Docker's
		// json-file driver (collected).
		line = collected(line)
		if i = bytes.Index(line, []byte(" event.go:")); i < 0 {
			return "", "", "", "", false
		}
	}
	j := bytes.Index(line[i:], []byte("] "))
	if j < 0 {
		return "", "", "", "", false
	}
	rest := line[i+j+2:]
	if bytes.HasPrefix(rest, []byte("Event(v1.ObjectReference{")) {
		kind, ns, name = goField(rest, "Kind"), goField(rest, "Namespace"), goField(rest, "Name")
	} else if bytes.HasPrefix(rest, []byte(`"Event occurred" `)) {
		kind = klogField(rest, "kind")
		ns, name = splitRef(klogField(rest, "object"))
	}
	// What the event says, after its object: kept short, it is searched
	// once for the failure that may follow.
	if i := bytes.IndexByte(rest, '}'); i >= 0 {
		rest = rest[i+1:]
	}
	says = string(rest[:min(len(rest), 512)])
	return kind, ns, name, says, kind != "" && name != "" && clusterName.MatchString(name)
}

// eventHead is how far into a line its klog header names event.go.
const eventHead = 96

// eventCaller is bytes.Index(head, " event.go:"), found from the dots of
// head: it runs on every line that is no record, and a line's head holds
// a dot or two (a time's fraction, a caller) where it holds many spaces,
// on each of which bytes.Index stopped (a tenth of a production log's
// read, BenchmarkRead1MMix).
func eventCaller(head []byte) int {
	const before, after = " event", "go:"
	for from := len(before); from < len(head); {
		j := bytes.IndexByte(head[from:], '.')
		if j < 0 {
			return -1
		}
		j += from
		if string(head[j-len(before):j]) == before && len(head) >= j+1+len(after) && string(head[j+1:j+1+len(after)]) == after {
			return j - len(before)
		}
		from = j + 1
	}
	return -1
}

// goField is the value of NAME:"…" in a Go %#v struct's text.
func goField(b []byte, name string) string { return quotedAfter(b, name+`:"`) }

// klogField is the value of name="…" in a structured klog line.
func klogField(b []byte, name string) string { return quotedAfter(b, " "+name+`="`) }

// quotedAfter is the text from the first opening k (which ends in a
// quote) to the next quote: "" when either is missing. An escaped quote
// ends it too: the names these fields hold have none.
func quotedAfter(b []byte, k string) string {
	i := bytes.Index(b, []byte(k))
	if i < 0 {
		return ""
	}
	v := b[i+len(k):]
	j := bytes.IndexByte(v, '"')
	if j < 0 {
		return ""
	}
	return string(v[:j])
}

// recentEvent is the object of the last event recorder line, and the
// line it was on.
type recentEvent struct {
	kind, key string
	says      string // the rest of the event line: its reason and message
	line      int
	ambiguous bool // another object was named within eventWindow of it
}

// noteEvent keeps the object of an event line, the n-th line applied.
// Only the one goroutine that applies lines in order calls it.
func (s *Store) noteEvent(line []byte, n int) {
	kind, ns, name, says, ok := eventObject(line)
	if !ok {
		return
	}
	key := keyOf(ns, name)
	prev := s.lastEvent
	s.lastEvent = recentEvent{kind: kind, key: key, says: says, line: n}
	if prev.key != "" && n-prev.line <= eventWindow && (prev.key != key || prev.kind != kind) {
		s.lastEvent.ambiguous = true
	}
}

// eventKeyFor is the key of the event line just before the n-th line applied,
// when the line names that event's kind and quoted name ("" otherwise).
func (s *Store) eventKeyFor(line []byte, n int) string {
	e := s.lastEvent
	if e.key == "" || e.ambiguous || n-e.line > eventWindow || n <= e.line {
		return ""
	}
	_, name := splitRef(e.key)
	if text := string(collected(line)); !namesObject(text, e.kind, name) && !sharesObject(text, e.kind, e.says) {
		return ""
	}
	return e.key
}

// sharesObject says whether text names an object of kind by a quoted name
// that the event's own words (says) name it by too.
func sharesObject(text, kind, says string) bool {
	k := strings.ToLower(kind) + " "
	for rest := says; ; {
		i := strings.Index(rest, k)
		if i < 0 {
			return false
		}
		rest = rest[i+len(k):]
		q := `"`
		if strings.HasPrefix(rest, `\"`) {
			q = `\"`
		} else if !strings.HasPrefix(rest, q) {
			continue
		}
		name, _, ok := strings.Cut(rest[len(q):], q)
		if ok && clusterName.MatchString(name) && namesObject(text, kind, name) {
			return true
		}
	}
}

// namesObject says whether text names the object as a Go error does: its
// kind in lower case, a space, and its name in quotes (escaped or not).
func namesObject(text, kind, name string) bool {
	k := strings.ToLower(kind)
	return strings.Contains(text, k+` "`+name+`"`) || strings.Contains(text, k+` \"`+name+`\"`)
}

// eventKeyed reads again a line that looked like a failure naming no key
// (the n-th applied), with the key of the event line just before it when
// its message names that event's object; ok is false when it does not, or
// when the generic reader still reads no key.
func (s *Store) eventKeyed(line []byte, n int, ref time.Time, fromLog bool) (Record, outcome, bool) {
	key := s.eventKeyFor(line, n)
	if key == "" {
		return Record{}, outOther, false
	}
	var r Record
	out := parseAll(line, parseRef{at: ref, fromLog: fromLog, dialects: s.opts.Dialects, markers: s.markers, eventKey: key}, &r)
	if out != outRecord && out != outCandidate || r.Key() != key {
		return Record{}, outOther, false
	}
	return r, out, true
}
