package logs

import "time"

// Record is what one log line says about a controller's keys. The fields
// most lines set come first, What to ErrorIsMessage: a record held for time
// order keeps them alone when it sets no other (heldrecord.go).
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
	// Sampled says the line is zap JSON, the format of controller-runtime's
	// production logger, which drops lines of one message past
	// api.SampledLines a second (sampledJSON tells it from slog's and
	// logrus' JSON, which never sample).
	Sampled bool
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
	// syncing" … "requeuing"): what --explain-lines says it read. A
	// dialect's prefix or regexp is only part of the message: Message is
	// then that line of the dialect as `kubectl backoff dialects` shows
	// it ("syncing job: …" quoted, /REGEXP/), and Tried the message.
	Message string
	// Tried is the message the dialects' patterns were tried against: the
	// line's message as its format reads it (the error, for client-go's
	// "Unhandled Error"). Set with NotRead, and on a record a dialect's
	// prefix or regexp read.
	Tried string
	// Bare says the generic reader's line said no retry or drop words (it
	// opens with the failure): perhaps an inner cause, counted only when
	// no handler's line of its attempt is near (attempt.go).
	Bare bool
	// ClientGoQueue says the line comes from a controller on a bare client-go
	// work queue (cert-manager's, sample-controller's), whose default limiter
	// is client-go's DefaultControllerRateLimiter: the max of per-item
	// exponential (5ms..1000s) and a 10 qps / burst 100 token bucket.
	ClientGoQueue bool
	// Requeue says a ForgetLine's keys' retries were released (Forgot).
	Requeue bool
	// Verbose says the line is written only at a verbosity that writes
	// successes too, as V(5) lines are (Crossplane's, at --debug, where
	// "External resource is up to date" is written as well).
	Verbose bool
	// Candidate says a generic line names one key and carries an error but
	// its words alone do not say it is a failed attempt: it waits for the
	// log's structure to decide (evidence.go). NotRead says what its
	// words lacked.
	Candidate bool
	// KeyFromAttempt says the failure line names no key: its key is the
	// one its attempt's KeyLine named (attemptkey.go), Alias what the line
	// names instead.
	KeyFromAttempt bool
	// KnownOnly says the line settles only a key the log already tracks
	// and makes none (DialectLine.KnownKeys): a success logged for every
	// object reconciled, failing or not.
	KnownOnly bool
	// ViaHandleError says the line is client-go's HandleError's
	// ("Unhandled Error" err=…, its message the error): a controller may
	// have logged the same text just before, of the same attempt (echo.go).
	ViaHandleError bool
	// ErrorIsMessage says the generic reader found no error in the line
	// but its message, which it took as the error: a give-up that states
	// none may be followed by its attempt's HandleError line (giveup.go).
	ErrorIsMessage bool
	// Finished says the line is a sync's deferred end (DialectLine.Finished):
	// a success unless its attempt's failure line follows (finished.go).
	Finished bool

	// Items are a QueueLine's queued keys.
	Items []QueueItem
	// RetryIn is the delay before the next retry when the line states it
	// (Flux's "Reconciliation failed after 21ms, next try in 1m0s"): the
	// retry time is then At+RetryIn, exact. Zero when it must be estimated.
	RetryIn time.Duration
	// RetryWords are the line's own words that state RetryIn ("Retrying in
	// 2m40s"), quoted by describe: see statedWords.
	RetryWords string
	// Waited is the delay the line's attempt waited in the queue when the
	// line states it (virtual-kubelet's delayedViaRateLimit=): the
	// limiter's delay after the key's previous failure, not the next
	// (waiteddelay.go). Zero when the line states none.
	Waited time.Duration
	// WaitedWords is the field that states Waited, as written
	// ("delayedViaRateLimit=1m21.92s").
	WaitedWords string
	// Retries is the retry count the line states (Istio's "retrying
	// (retry count: 11)"): the limiter's count of the key's failures, a
	// fact. Zero when the line states none.
	Retries int
	// Took is how long the attempt's sync took when its line states it (a
	// "Finished syncing" line's duration=: took.go); zero when none does.
	Took time.Duration
	// NotRead says, of a line parse did not read though it looked like a
	// failure (a failure phrase at error level), why not: no retry said,
	// no key, two keys. Set on the zero Record parse returns.
	NotRead string
	// Template is, for the generic reader, the message's template (its
	// variable parts masked, template.go): two templates naming one key at
	// one moment are one attempt.
	Template string
	// CallerLine is, for a generic record whose controller is its caller's
	// file (klog's controller.go:113 names "controller"), the caller's
	// line: two queues whose files have one name are told apart by it
	// (sites.go). 0 otherwise.
	CallerLine int
	// Line is the line a record of the generic reader was read from (it
	// reads by rule, not by a project's words), so that describe can show
	// what it read; empty for the named dialects.
	Line string
	// Forgot are the keys a ForgetLine reset, in the order the forget took
	// them (the order its spread releases them); the line names at most
	// api.MaxForgetReport of Count. With Requeue, their retries were
	// released, spread evenly over Spread (the i-th of Count after
	// Spread·i/Count). User and Reason say who forgot them and why.
	Forgot       []ForgotKey
	Count        int
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
	// Evidence is, for a generic record, what decided that the line is a
	// key's failed attempt (the words, or the template's growing gaps),
	// said by --explain-lines and describe.
	Evidence string
	// ControllerWords are the line's words Controller was read from when
	// the line names no controller: "handler need-a-cert", the handler its
	// error names (handlername.go).
	ControllerWords string
	// Alias is, for a KeyFromAttempt line, what the line names instead of
	// its key (the HPA controller's scale target, "Deployment/ns/web"):
	// the key it is once a KeyLine said so.
	Alias string
}

// Key is the record's key as the instrument prints it: "namespace/name", or
// "name" when cluster-scoped.
func (r *Record) Key() string {
	if r.Namespace == "" {
		return r.Name
	}
	return r.Namespace + "/" + r.Name
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
