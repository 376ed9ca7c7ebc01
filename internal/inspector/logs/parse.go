package logs

import (
	"bytes"
	"strconv"
	"strings"
	"time"
)

// What is the kind of a controller-runtime log line this package reads.
type What uint8

// The lines the reconstruction uses. Only ErrorLine is logged at the default
// verbosity; the rest need --zap-log-level=5 (or -v=5).
const (
	// ErrorLine is "Reconciler error": the reconcile returned an error; a
	// terminal one when Record.Terminal.
	ErrorLine What = iota + 1
	// StartLine is "Reconciling" (V(5)): a reconcile began.
	StartLine
	// SuccessLine is "Reconcile successful" (V(5)): the key was forgotten.
	SuccessLine
	// RequeueAfterLine is "Reconcile done, requeueing after D" (V(5)).
	RequeueAfterLine
	// RequeueLine is "Reconcile done, requeueing" (V(5)): Requeue: true,
	// a rate-limited requeue without an error.
	RequeueLine
	// QueueLine is the priority queue's periodic "workqueue_items" (V(5)).
	QueueLine
	// ForgetLine is the instrument's "forgot backoff" (logged at the default
	// verbosity through its handler's logger, the controller's own by
	// default): a user reset the failure counts of Record.Forgot, and with
	// Record.Requeue released their retries.
	ForgetLine
	// CountLine states a key's failure count beside the retry, without the
	// error (the CSI provisioner's "Retrying syncing claim KEY, failure
	// 16" before its "error syncing claim KEY: ERR"): the count is put on
	// the failure of the same attempt (Record.Retries), not counted itself.
	CountLine
	// WarningLine warns of a failure whose own line the handler logs next
	// in the same attempt (controller-runtime's "Warning: Reconciler
	// returned both …" before "Reconciler error"): it is the attempt's
	// failure only when no such line of its reconcileID, or of its key
	// within attemptWindow, follows (a paste cut before it); it says no
	// error (attempt.go).
	WarningLine
	// CauseLine is a reconciler's own error line naming its key ("…
	// default/x finalize error pods \"p\" not found" at E level): never
	// counted itself; its error is the attempt's when a WarningLine of the
	// key follows within attemptWindow with no other inner cause
	// (innercause.go).
	CauseLine
	// KeyLine names the key of its attempt, whose failure line, logged
	// next by the same controller, names none (kube-controller-manager's
	// job controller: "Finished syncing job" key=KEY, then "syncing job:
	// ERR"): the key goes to that failure (attemptkey.go), not counted
	// itself.
	KeyLine
	// LoopLine is a failure of a loop that syncs every object at each tick
	// and has no work queue (metacontroller's CompositeController before
	// 2018-02-28: "can't sync KIND ns/x: ERR", then the next object): no
	// key's attempt and no retry of its own, never counted (a dialect's
	// means: loop).
	LoopLine
)

// terminalPrefix is what reconcile.TerminalError's message starts with.
const terminalPrefix = "terminal error: "

// The messages, as controller-runtime writes them (pkg/internal/controller
// and pkg/controller/priorityqueue).
const (
	msgError        = "Reconciler error"
	msgStart        = "Reconciling"
	msgSuccess      = "Reconcile successful"
	msgRequeue      = "Reconcile done, requeueing"
	msgRequeueAfter = "Reconcile done, requeueing after "
	msgQueue        = "workqueue_items"
	// msgForget is the instrument's line for a forget (instrument's
	// forgetter.logForget).
	msgForget = "forgot backoff"
)

// Parse reads one log line in any of the formats and dialects this package
// knows (see builtins and format): zap JSON (epoch or ISO timestamps), zap
// console, klog and klogr text, slog, logrus and go-kit, from
// controller-runtime v0.25 back to the releases that logged `request` or
// `reconciler kind`, and the failure lines of Flux, cert-manager,
// sample-controller-style client-go controllers, prometheus-operator,
// kube-controller-manager and Crossplane's managed reconciler; behind kubectl's --prefix and --timestamps,
// stern's names, a container's name or the kubelet's CRI files. ref dates
// klog's year-less timestamps (the newest such time not after ref plus a
// day). ok is false for a line that is none of the records, or is missing
// the controller or key. A time it cannot read is left zero: unknown.
func Parse(line []byte, ref time.Time) (r Record, ok bool) {
	r, out := parse(line, parseRef{at: ref})
	return r, out == outRecord
}

// parseRef dates klog's year-less headers: the year that puts a header
// newest not after at plus a day (at is a reading clock: a log is not from
// the future), or, when fromLog, the year that puts it nearest at (at is the
// log's own newest dated line, which later lines may pass).
type parseRef struct {
	at      time.Time
	fromLog bool
	// dialects are the dialect files' (--dialect), read after the built-in
	// dialects and before the generic reader; markers are the markers of
	// all of them (dialectMarkers), nil for the built-ins' alone.
	dialects []Dialect
	markers  *markerSet
	// intern is the reading goroutine's (interner); nil for none.
	intern *interner
	// eventKey, when set, is the key of the event line just before this
	// one, whose object its message names (eventkey.go): the generic
	// reader's key when the line names none.
	eventKey string
	// keyBefore and kindBefore, when set, are the key of the line just
	// before this one, of the same attempt, and the Kind of the field
	// that named it (keybefore.go): a dialect's key and controller when
	// the line names none.
	keyBefore, kindBefore string
	// whole is the line parseAll reads, its end of line off: a lineMemo
	// keeps a JSON line that is its whole body, nothing taken off it.
	whole []byte
}

// outcome is what parse made of a line.
type outcome uint8

const (
	// outSkipped: no marker of any dialect; not a record.
	outSkipped outcome = iota
	// outRecord: a record.
	outRecord
	// outOther: a marker, but not a line the dialects read (a "Reconciling"
	// of some other logger, a quoted message).
	outOther
	// outUnreadable: it looks like a failure (a failure marker) but could
	// not be read: no key, no controller, cut short.
	outUnreadable
	// outCandidate: the generic reader's candidate (Record.Candidate), for
	// the log's structure to decide (evidence.go).
	outCandidate
)

// parse is Parse, saying what it made of a line that is not a record.
func parse(line []byte, ref parseRef) (Record, outcome) {
	var r Record
	out := parseInto(line, ref, &r)
	return r, out
}

// parseInto is parse, its record put in r (overwritten whole): a Record
// is some 500 bytes, and returned by value it was copied at each of the
// four calls between the dialect that fills it and the reader that keeps
// it.
func parseInto(line []byte, ref parseRef, r *Record) outcome {
	if ref.intern.memo().read(trimEOL(line), &ref, r) {
		return outRecord // a line read before but for its time (linememo.go)
	}
	if ref.skips(line) {
		*r = Record{}
		return outSkipped
	}
	return parseAll(line, ref, r)
}

// skips says whether parse skips line: it holds no marker. One pass over
// the line for the markers of every loaded dialect (prefilter.go); without
// a set for its dialect files, none.
func (ref *parseRef) skips(line []byte) bool {
	m := ref.markers
	if m == nil && len(ref.dialects) == 0 {
		m = builtinMarkers
	}
	return m != nil && !m.has(line)
}

// parseAll is parseInto without the markers' shortcut: --explain-lines
// reads every line, to say why one that looks like a failure was not read.
func parseAll(line []byte, ref parseRef, r *Record) outcome {
	// What a TTY or Docker's json-file driver put around the line is taken
	// off once for every reading below (the plain and whole-line ones
	// too), and for the line a generic record shows.
	ref.whole = trimEOL(line)
	line = collected(ref.whole)
	at, body, fm, words := split(line)
	ok := parseFormat(body, fm, at, ref, r)
	var cand Record
	ok = candidateAside(r, ok, &cand)
	notRead, tried := r.NotRead, r.Tried
	if !ok && words > 0 && !cand.Candidate {
		// The words skipped were the line's own (a console line's message
		// before its JSON): read it whole.
		at, body = kubeletTime(trimPodPrefix(line))
		fm = fmtConsole
		ok = parseFormat(body, fm, at, ref, r)
		ok = candidateAside(r, ok, &cand)
		if notRead == "" {
			notRead, tried = r.NotRead, r.Tried
		}
	}
	if !ok && !cand.Candidate {
		// Plain text, read whole: the last format tried, so that it takes
		// no line another reads (nor one a format read as a candidate).
		// What r held is not kept past here unless a record (below).
		at, body = kubeletTime(trimPodPrefix(line))
		ok = parsePlainFormat(body, at, ref, r)
		if ok = candidateAside(r, ok, &cand); !ok && notRead == "" {
			notRead, tried = r.NotRead, r.Tried
		}
	}
	if ok || cand.Candidate {
		if !ok {
			// No format read it as a record: the generic reader's
			// candidate, for the log's structure to decide.
			*r = cand
			if d, m := ref.failPhrase(line); d != nil {
				r.NotRead = nearMiss(d, m, r.NotRead, r.Tried != "")
			}
		}
		if r.Dialect == genericName {
			r.Line = truncateError(string(line))
		}
		if !ok {
			return outCandidate
		}
		return outRecord
	}
	*r = Record{NotRead: notRead, Tried: tried}
	for _, m := range failMarkers {
		if bytes.Contains(line, []byte(m)) {
			return outUnreadable
		}
	}
	if strings.HasPrefix(notRead, matchedNotRead) {
		// A dialect's failure line matched it, but it was not read (a
		// regexp that captured no key): a failure not read, as
		// --explain-lines says, though no failure phrase or marker is in
		// its words (a regexp of alternatives has none). It was counted
		// only where one was.
		return outUnreadable
	}
	if d, m := ref.failPhrase(line); d != nil {
		r.NotRead = nearMiss(d, m, r.NotRead, r.Tried != "")
		return outUnreadable
	}
	return outOther
}

// failPhrase is the first dialect file holding a failure phrase line
// holds, and the phrase; nil for none.
func (ref *parseRef) failPhrase(line []byte) (*Dialect, string) {
	for i := range ref.dialects {
		d := &ref.dialects[i]
		for _, m := range d.failMarkers {
			if bytes.Contains(line, []byte(m)) {
				return d, m
			}
		}
	}
	return nil, ""
}

// nearMiss says why a line holding a failure phrase of a dialect file was
// not read by it: the phrase passed the markers, but no line of the dialect
// matched the message (a regexp's other parts, a text's rest). Its author
// needs that first, then what the other readers made of the line (why).
func nearMiss(d *Dialect, phrase, why string, tried bool) string {
	s := "holds " + strconv.Quote(strings.TrimSpace(phrase)) + ", a failure line's words of dialect " + strconv.Quote(d.Name) + ", but its message matches none of that dialect's lines"
	if tried {
		s += " (the message they were tried against is given last)"
	}
	if why != "" {
		s += "; " + why
	}
	return s
}

// parseFields reads body's fields as format fm writes them into f; any
// format not named is read as a console line (parseConsole).
func parseFields(body []byte, fm format, ref parseRef, f *fields) bool {
	switch fm {
	case fmtJSON:
		return parseJSON(body, f)
	case fmtKlog:
		return parseKlog(body, ref, f)
	case fmtLogfmt:
		return parseLogfmt(body, f)
	case fmtLogrus:
		return parseLogrus(body, f)
	default:
		return parseConsole(body, f)
	}
}

// parseFormat reads body as format fm into r; at, when not zero, is the
// time the collector put before it.
func parseFormat(body []byte, fm format, at time.Time, ref parseRef, r *Record) bool {
	f := fields{intern: ref.intern, eventKey: ref.eventKey, keyBefore: ref.keyBefore, kindBefore: ref.kindBefore}
	var ok bool
	if fm == fmtPlain {
		ok = parsePlain(body, &f) // Python's bracketed logging (bracketed.go)
	} else {
		ok = parseFields(body, fm, ref, &f)
	}
	if !ok && len(ref.dialects) > 0 {
		f = fields{}
		ok = parseText(body, &f)
	}
	if !ok {
		*r = Record{}
		return false
	}
	yearless := fm == fmtKlog && at.IsZero() && !f.at.IsZero()
	if !at.IsZero() {
		f.at = at
	}
	ok = f.record(fm, ref.dialects, r)
	r.Yearless = yearless
	r.Sampled = fm == fmtJSON && sampledJSON(&f)
	if ok && fm == fmtJSON && at.IsZero() && sameBytes(body, ref.whole) {
		// A JSON line alone, which the next may repeat (linememo.go).
		ref.intern.memo().learn(body, &f, r, &ref)
	}
	return ok
}

// parsePlainFormat reads body as plain text (parsePlain) into r; at, when
// not zero, is the time the collector put before it.
func parsePlainFormat(body []byte, at time.Time, ref parseRef, r *Record) bool {
	f := fields{intern: ref.intern, eventKey: ref.eventKey, keyBefore: ref.keyBefore, kindBefore: ref.kindBefore}
	if !parsePlain(body, &f) {
		*r = Record{}
		return false
	}
	if !at.IsZero() {
		f.at = at
	}
	return f.record(fmtPlain, ref.dialects, r)
}

// sampledJSON says whether a JSON line comes from a logger that may sample:
// zap, which names the time "ts" (its production encoder, controller-
// runtime's default) or the message "message" (Knative's and Karpenter's
// zap config, which sets sampling 100/100). slog's JSONHandler and logrus'
// JSONFormatter write "time" and "msg" and never drop a line.
func sampledJSON(f *fields) bool {
	return !(f.timeKey == "time" && f.msgKey == "msg")
}

// hasMarker says whether line contains one of the markers, marker by
// marker: what markerSet.has finds in one pass (TestMarkerSetIsHasMarker).
func hasMarker(line []byte) bool {
	for _, m := range markers {
		if bytes.Contains(line, m) {
			return true
		}
	}
	return false
}
