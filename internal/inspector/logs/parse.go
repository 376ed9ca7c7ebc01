package logs

import (
	"bytes"
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
)

// terminalPrefix is what reconcile.TerminalError's message starts with.
const terminalPrefix = "terminal error: "

// Record is what one log line says about a controller's keys.
type Record struct {
	What What
	// At is the line's time: the kubelet's timestamp when the line carries
	// one (kubectl logs --timestamps, as the stream asks for), else the
	// logger's own. Zero means unknown (a logger that writes no time, or
	// only the seconds since it started): never a time to use, and none is
	// put in its place (times.go). Store.Read counts such records in
	// LogRead.Untimed, and reads a time that cannot be true as zero too.
	At time.Time
	// Controller is the controller's name; Group and Kind its object's
	// group and kind when it logs them (controllers built with For()).
	Controller, Group, Kind string
	// Namespace and Name are the key's object (Name alone when cluster-scoped).
	Namespace, Name string
	ReconcileID     string
	// Error is the reconcile's error message; Terminal when it was a
	// reconcile.TerminalError (the message starts "terminal error: ").
	Error    string
	Terminal bool
	// RequeueAfter is the delay of a RequeueAfterLine.
	RequeueAfter time.Duration
	// Items are a QueueLine's queued keys.
	Items []QueueItem
	// Sampled says the line is zap JSON, the format of controller-runtime's
	// production logger, which drops lines of one message past
	// api.SampledLines a second (sampledJSON tells it from slog's and
	// logrus' JSON, which never sample).
	Sampled bool
	// RetryIn is the delay before the next retry when the line states it
	// (Flux's "Reconciliation failed after 21ms, next try in 1m0s"): the
	// retry time is then At+RetryIn, exact. Zero when it must be estimated.
	RetryIn time.Duration
	// RetryWords are the line's own words that state RetryIn ("Retrying in
	// 2m40s"), quoted by describe: see statedWords.
	RetryWords string
	// Retries is the retry count the line states (Istio's "retrying
	// (retry count: 11)"): the limiter's count of the key's failures, a
	// fact. Zero when the line states none.
	Retries int
	// Yearless says At came from a header without a year (klog's), dated
	// by the parseRef the line was parsed with.
	Yearless bool
	// GaveUp says the line is the controller giving up on the key after a
	// failure (client-go's handleErr after maxRetries: "Dropping … out of
	// the queue"): it is forgotten and not requeued, failed until the next
	// change to its object.
	GaveUp bool
	// Dialect names the family of lines that read it, for the diagnostics
	// that tell a user whether their log was understood.
	Dialect string
	// Message is the dialect's message the line matched ("Reconciler
	// error"), or for the generic reader the phrases it read ("Error
	// syncing" … "requeuing"): what --explain-lines says it read.
	Message string
	// NotRead says, of a line parse did not read though it looked like a
	// failure (a failure phrase at error level), why not: no retry said,
	// no key, two keys. Set on the zero Record parse returns.
	NotRead string
	// Tried is, with NotRead, the message the dialects' patterns were
	// tried against: the line's message as its format reads it.
	Tried string
	// Template is, for the generic reader, the message's template (its
	// variable parts masked, template.go): two templates naming one key at
	// one moment are one attempt. Bare says the line said no retry or
	// drop words (it opens with the failure): perhaps an inner cause,
	// counted only when no handler's line of its attempt is near
	// (attempt.go).
	Template string
	Bare     bool
	// Line is the line a record of the generic reader was read from (it
	// reads by rule, not by a project's words), so that describe can show
	// what it read; empty for the named dialects.
	Line string
	// ClientGoQueue says the line comes from a controller on a bare client-go
	// work queue (cert-manager's, sample-controller's), whose default limiter
	// is client-go's DefaultControllerRateLimiter: the max of per-item
	// exponential (5ms..1000s) and a 10 qps / burst 100 token bucket.
	ClientGoQueue bool
	// Forgot are the keys a ForgetLine reset, in the order the forget took
	// them (the order its spread releases them); the line names at most
	// api.MaxForgetReport of Count. Requeue says their retries were released,
	// spread evenly over Spread (the i-th of Count after Spread·i/Count).
	// User and Reason say who forgot them and why.
	Forgot       []ForgotKey
	Count        int
	Requeue      bool
	Spread       time.Duration
	User, Reason string
	// Limiter is the per-item limiter the controller's project sets, when
	// its dialect knows it (cert-manager's own: 1s..30s for its certificates
	// controllers, 5s..5m for the others, pkg/controller/util.go); zero when
	// not known, and the store's assumption holds. LimiterOf names whose it
	// is: the dialect's, or Crossplane's for a line of a managed reconciler
	// ("managed/…") that another dialect read; empty with a zero Limiter.
	Limiter   Limiter
	LimiterOf string
	// Verbose says the line is written only at a verbosity that writes
	// successes too, as V(5) lines are (Crossplane's, at --debug, where
	// "External resource is up to date" is written as well).
	Verbose bool
	// Candidate says a generic line names one key and carries an error but
	// its words alone do not say it is a failed attempt: it waits for the
	// log's structure to decide (evidence.go). NotRead says what its
	// words lacked. Evidence is, for a generic record, what decided that
	// the line is a key's failed attempt (the words, or the template's
	// growing gaps), said by --explain-lines and describe.
	Candidate bool
	Evidence  string
	// KeyFromAttempt says the failure line names no key: its key is the
	// one its attempt's KeyLine named (attemptkey.go). Alias is, then,
	// what the line names instead (the HPA controller's scale target,
	// "Deployment/ns/web"): the key it is once a KeyLine said so.
	KeyFromAttempt bool
	Alias          string
}

// Key is the record's key as the instrument prints it: "namespace/name", or
// "name" when cluster-scoped.
func (r *Record) Key() string {
	if r.Namespace == "" {
		return r.Name
	}
	return r.Namespace + "/" + r.Name
}

// lastKey is the last record's key, with its parts: a key's lines come
// together (a reconcile's start and its end), and a store looks each
// record's key up, which concatenated it anew every time.
type lastKey struct{ ns, name, key string }

// of is r.Key(), the last one's when r's parts are the same (the
// interner's strings: a comparison of a string with itself).
func (l *lastKey) of(r *Record) string {
	if r.Name != l.name || r.Namespace != l.ns || l.key == "" {
		l.ns, l.name, l.key = r.Namespace, r.Name, r.Key()
	}
	return l.key
}

// ForgotKey is one key a ForgetLine names, with the failures it had.
type ForgotKey struct {
	Key      string
	Failures int
}

// QueueItem is one item of the priority queue's workqueue_items line.
type QueueItem struct {
	Key          string
	AddedCounter uint64
	Priority     int
	// ReadyAt is when a waiting item becomes ready; zero when ready now.
	ReadyAt time.Time
}

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
	if ref.skips(line) {
		return Record{}, outSkipped
	}
	return parseAll(line, ref)
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

// parseAll is parse without the markers' shortcut: --explain-lines reads
// every line, to say why one that looks like a failure was not read.
func parseAll(line []byte, ref parseRef) (Record, outcome) {
	line = trimEOL(line)
	at, body, fm, words := split(line)
	r, ok := parseFormat(body, fm, at, ref)
	var cand Record
	ok = candidateAside(&r, ok, &cand)
	notRead, tried := r.NotRead, r.Tried
	if !ok && words > 0 && !cand.Candidate {
		// The words skipped were the line's own (a console line's message
		// before its JSON): read it whole.
		at, body = kubeletTime(trimPodPrefix(line))
		fm = fmtConsole
		r, ok = parseFormat(body, fm, at, ref)
		ok = candidateAside(&r, ok, &cand)
		if notRead == "" {
			notRead, tried = r.NotRead, r.Tried
		}
	}
	if !ok && !cand.Candidate {
		// Plain text, read whole: the last format tried, so that it takes
		// no line another reads (nor one a format read as a candidate).
		at, body = kubeletTime(trimPodPrefix(line))
		var rp Record
		rp, ok = parsePlainFormat(body, at, ref)
		if ok = candidateAside(&rp, ok, &cand); ok {
			r = rp
		} else if notRead == "" {
			notRead, tried = rp.NotRead, rp.Tried
		}
	}
	if ok || cand.Candidate {
		if !ok {
			// No format read it as a record: the generic reader's
			// candidate, for the log's structure to decide.
			r = cand
		}
		if r.Dialect == genericName {
			r.Line = truncateError(string(line))
		}
		if !ok {
			return r, outCandidate
		}
		return r, outRecord
	}
	for _, m := range failMarkers {
		if bytes.Contains(line, []byte(m)) {
			return Record{NotRead: notRead, Tried: tried}, outUnreadable
		}
	}
	for i := range ref.dialects {
		for _, m := range ref.dialects[i].failMarkers {
			if bytes.Contains(line, []byte(m)) {
				return Record{NotRead: notRead, Tried: tried}, outUnreadable
			}
		}
	}
	return Record{NotRead: notRead, Tried: tried}, outOther
}

// parseFormat reads body as format fm; at, when not zero, is the time the
// collector put before it.
func parseFormat(body []byte, fm format, at time.Time, ref parseRef) (Record, bool) {
	f := fields{intern: ref.intern, eventKey: ref.eventKey}
	var ok bool
	switch fm {
	case fmtJSON:
		ok = parseJSON(body, &f)
	case fmtKlog:
		ok = parseKlog(body, ref, &f)
	case fmtLogfmt:
		ok = parseLogfmt(body, &f)
	case fmtLogrus:
		ok = parseLogrus(body, &f)
	default:
		ok = parseConsole(body, &f)
	}
	if !ok && len(ref.dialects) > 0 {
		f = fields{}
		ok = parseText(body, &f)
	}
	if !ok {
		return Record{}, false
	}
	yearless := fm == fmtKlog && at.IsZero() && !f.at.IsZero()
	if !at.IsZero() {
		f.at = at
	}
	r, ok := f.record(fm, ref.dialects)
	r.Yearless = yearless
	r.Sampled = fm == fmtJSON && sampledJSON(&f)
	return r, ok
}

// parsePlainFormat reads body as plain text (parsePlain); at, when not
// zero, is the time the collector put before it.
func parsePlainFormat(body []byte, at time.Time, ref parseRef) (Record, bool) {
	f := fields{intern: ref.intern, eventKey: ref.eventKey}
	if !parsePlain(body, &f) {
		return Record{}, false
	}
	if !at.IsZero() {
		f.at = at
	}
	return f.record(fmtPlain, ref.dialects)
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
