package logs

import (
	"bytes"
	"strconv"
	"strings"
)

// A work-queue worker that logs contextually often puts the key on the
// sync's logger, not on the handler's: k8s.io/dynamic-resource-allocation's
// resourceslice controller (v0.37, processNextWorkItem) calls
// syncPool(klog.NewContext(ctx, LoggerWithValues(logger, "poolName",
// key))), and on its error c.errorHandler(ctx, err, "processing
// ResourceSlice objects") with the worker's own ctx, then AddRateLimited.
// client-go's utilruntime.HandleErrorWithContext logs on the context's
// logger named once more (logError: LoggerWithName(logger,
// "UnhandledError")), at error level. So the log shows, for one attempt:
// lines of logger L that all carry KEYFIELD=KEY (the sync's), then an error
// line of logger "L.UnhandledError" with err= and no KEYFIELD — no key
// (batch17/1711: `"Completed comparison" logger="fabric.example.com"
// poolName="fabric-b" …`, `"Bumped generation by one" … poolName="fabric-b"
// generation=1`, then `E… "processing ResourceSlice objects" err="create
// resource slice: …" logger="fabric.example.com.UnhandledError"`).
//
// Such a line is a failure of the key the sync's lines named, when all of
// these hold: it is at error level and states an error; its logger is
// another's named "UnhandledError"; the last line of that other logger
// before it, within attemptWindow, names exactly one object by a field
// (a value an object's name can be, with a letter in it) and, when the
// line of that logger before it is within attemptWindow too, that line
// carries the same field with the same value and no other such field both
// share (an informer's line of another key between them, or two workers'
// attempts interleaved, leave two keys or none: no key is better than a
// false one); and the failure line itself names no object (a line that
// does was logged inside the sync, with its values — "pool validation
// failed" poolName=…, after which syncPool returns nil — not by the
// handler after it). A sync that fails before it logs (the node-owned
// pool's `retrieve node …`) names its key nowhere: its failures are counted
// as lines not read, with the reason.

// handlerLogLines is how many lines naming a logger are kept for the
// failure line that may follow them: the sync's two, and the other
// loggers' lines interleaved.
const handlerLogLines = 6

// loggedLines are the last lines that named a logger (klog's logger="…"),
// copied: a ring whose buffers are reused.
type loggedLines struct {
	raw  [handlerLogLines][]byte
	next int
}

// loggerField is how a klog structured line names its logger.
var loggerField = []byte(` logger="`)

// handlerLoggerSuffix ends the name of the logger
// utilruntime.HandleErrorWithContext logs on.
const handlerLoggerSuffix = ".UnhandledError"

// noteLogged keeps line, which names a logger, for a handler's line after
// it. Only the goroutine that applies lines in order calls it.
func (s *Store) noteLogged(line []byte) {
	l := &s.logged
	l.raw[l.next] = append(l.raw[l.next][:0], line...)
	l.next = (l.next + 1) % handlerLogLines
}

// handlerKeyed reads line, which no dialect read, as the failure the work
// queue's handler logged after a sync whose lines named the key (above);
// ok is false when it is not one or its key is not known for sure, and
// then, for a handler's error line, the record says why it was not read
// (a failure whose key is not known is counted as not read, not dropped
// silently).
func (s *Store) handlerKeyed(line []byte, ref parseRef) (r Record, ok bool) {
	if !bytes.Contains(line, []byte(handlerLoggerSuffix+`"`)) {
		return Record{}, false
	}
	f := beforeFields(line, ref)
	parent, ok := strings.CutSuffix(f.logger, handlerLoggerSuffix)
	if !ok || parent == "" || !f.severe || f.err == "" || f.at.IsZero() {
		return Record{}, false
	}
	if len(objectValues(line)) > 0 {
		// It names an object itself: logged inside the sync, with the
		// sync's values ("pool validation failed" poolName=…, after which
		// syncPool returns nil), or a handler's line that is not keyless.
		return Record{}, false
	}
	r = Record{At: f.at, NotRead: "an error of logger " + strconv.Quote(f.logger) + " (client-go's HandleErrorWithContext on the worker's logger) names no key, " +
		"and logger " + strconv.Quote(parent) + "'s lines of the attempt just before it (within a second) do not name one object as the sync's"}
	var sync []namedValues
	for i := 1; i <= handlerLogLines && len(sync) < 2; i++ {
		raw := s.logged.raw[(s.logged.next-i+handlerLogLines)%handlerLogLines]
		if len(raw) == 0 {
			break
		}
		lf := beforeFields(raw, ref)
		if lf.logger != parent {
			continue
		}
		if !within(lf.at, f.at) {
			break
		}
		sync = append(sync, objectValues(raw))
	}
	if len(sync) == 0 {
		return r, false
	}
	field, key := sync[0].only(sync[1:])
	if key == "" {
		return r, false
	}
	r = Record{What: ErrorLine, At: f.at, Controller: parent, Dialect: genericName, ClientGoQueue: true,
		ViaHandleError: true, Error: f.err, Message: f.msg}
	r.Namespace, r.Name = splitRef(key)
	r.Evidence = "an error of logger " + strconv.Quote(f.logger) + " (client-go's HandleErrorWithContext on the worker's logger), naming no key; its key " +
		strconv.Quote(key) + " is the " + field + "= of logger " + strconv.Quote(parent) + "'s lines of the attempt just before it"
	return r, true
}

// namedValues are the fields of a klog structured line whose values may be
// an object's key: name and value, in the line's order.
type namedValues [][2]string

// objectValues are line's fields, after its message, whose values are an
// object's name or namespace/name with a letter in it (not a count, not a
// time, not text); its logger and error are none.
func objectValues(line []byte) namedValues {
	_, body, fm, _ := split(collected(trimEOL(line)))
	if fm != fmtKlog {
		return nil
	}
	end := bytes.Index(body, []byte("] "))
	if end < 0 {
		return nil
	}
	i := skipSpace(body, end+2)
	if i >= len(body) || body[i] != '"' {
		return nil
	}
	e, ok := skipString(body, i)
	if !ok {
		return nil
	}
	var out namedValues
	for i = skipSpace(body, e); i < len(body); i = skipSpace(body, i) {
		eq := bytes.IndexByte(body[i:], '=')
		if eq <= 0 || bytes.IndexByte(body[i:i+eq], ' ') >= 0 || i+eq+1 >= len(body) {
			return out
		}
		key := string(body[i : i+eq])
		i += eq + 1
		var val string
		switch body[i] {
		case '"':
			v, n, ok := klogString(body[i:])
			if !ok {
				return out
			}
			val, i = v, i+n
		case '[', '{':
			e, ok := skipValue(body, i)
			if !ok {
				return out
			}
			i = e
			continue
		default:
			e := i
			for e < len(body) && body[e] != ' ' {
				e++
			}
			val, i = string(body[i:e]), e
		}
		if key != "logger" && key != "err" && objectName(val) {
			out = append(out, [2]string{key, val})
		}
	}
	return out
}

// objectName says whether v may be an object's name or namespace/name,
// and has a letter: "fabric-b", not "0" or "2026-12-07".
func objectName(v string) bool {
	return (clusterName.MatchString(v) || nsName.MatchString(v)) && strings.ContainsAny(v, "abcdefghijklmnopqrstuvwxyz")
}

// has says whether the line carries a field of name.
func (nv namedValues) has(name string) bool {
	for _, p := range nv {
		if p[0] == name {
			return true
		}
	}
	return false
}

// only is the one field of nv, and its value, that every line of before
// carries with the same value, when exactly one is; "" otherwise.
func (nv namedValues) only(before []namedValues) (field, key string) {
	for _, p := range nv {
		shared := true
		for _, b := range before {
			shared = shared && b.hasValue(p)
		}
		if !shared {
			continue
		}
		if field != "" {
			return "", ""
		}
		field, key = p[0], p[1]
	}
	return field, key
}

// hasValue says whether the line carries field p[0] with value p[1].
func (nv namedValues) hasValue(p [2]string) bool {
	for _, q := range nv {
		if q == p {
			return true
		}
	}
	return false
}
