package api

import (
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Key is one tracked key as v1/keys and v1/key return it. Absent fields are
// omitted; times are the server's clock, to the microsecond (the instrument
// keeps them so, for its history's sake; serverTime keeps its nanoseconds).
type Key struct {
	Controller string `json:"controller"`
	Key        string `json:"key"`
	// Handle is set only when Key is not valid UTF-8, which JSON cannot carry
	// (the bad bytes arrive as U+FFFD): the key's bytes in unpadded base64url
	// (RFC 4648 §5). Give it back as v1/key's handle parameter, or in a
	// forget's handles, to name this exact key.
	Handle         string          `json:"handle,omitempty"`
	State          State           `json:"state"`
	Failures       int             `json:"failures"`
	TotalFailures  int             `json:"totalFailures,omitempty"`
	Reconciles     int             `json:"reconciles,omitempty"`
	NextRetryAt    time.Time       `json:"nextRetryAt,omitzero"`
	Delay          metav1.Duration `json:"delay,omitzero"`
	DelaySource    string          `json:"delaySource,omitempty"`
	LastError      *ErrorRecord    `json:"lastError,omitempty"`
	SameErrorCount int             `json:"sameErrorCount,omitempty"`
	// FirstFailureAt is when the key's run of failed reconciles began: a
	// success or a RequeueAfter ends the run; a forget restarts Failures,
	// the limiter's count, not the run.
	FirstFailureAt  time.Time       `json:"firstFailureAt,omitzero"`
	LastSuccessAt   time.Time       `json:"lastSuccessAt,omitzero"`
	LastReconcileAt time.Time       `json:"lastReconcileAt,omitzero"`
	LastDuration    metav1.Duration `json:"lastDuration,omitzero"`
	LastEventAt     time.Time       `json:"lastEventAt,omitzero"`
	QueuedAt        time.Time       `json:"queuedAt,omitzero"`
	StartedAt       time.Time       `json:"startedAt,omitzero"`
	// EarlierRetry says NextRetryAt comes from a retry scheduled before the
	// last Delay and still pending: the queue keeps the sooner of two ready
	// times for one key, so the key runs then, not Delay after its failure.
	EarlierRetry bool `json:"earlierRetry,omitempty"`
	// LastReset is the last time the failure count went back to 0 without a
	// success: a user's forget, or the controller giving up on the key.
	LastReset *Reset `json:"lastReset,omitempty"`
	// Source says where the numbers come from: empty for the instrument's own
	// records, SourceLogs for a key reconstructed from a controller's logs.
	Source string `json:"source,omitempty"`
	// Estimated marks times and delays that were computed, not recorded (log mode).
	Estimated bool `json:"estimated,omitempty"`
	// LogLine is, for a key read from a log by the generic reader of the
	// work-queue idiom (no dialect names its controller's words), the line
	// its last failure was read from, so that a user sees what was read.
	LogLine string    `json:"logLine,omitempty"`
	History []Attempt `json:"history,omitempty"`
}

// Reset is a reset of a key's failure count that was not a success.
type Reset struct {
	At time.Time `json:"at"`
	// By is ResetForget (kubectl backoff forget, or a POST to v1/forget) or
	// ResetGaveUp (the controller called Forget without a success and did not
	// requeue: client-go's handleErr after its last retry).
	By string `json:"by"`
	// Failures is the length of the failure streak the reset ended.
	Failures int `json:"failures"`
	// User is who asked for a forget, when known: the authenticated user, or
	// the client's claim followed by UnverifiedSuffix. Reason is what they gave.
	User   string `json:"user,omitempty"`
	Reason string `json:"reason,omitempty"`
}

// ErrorRecord is an error message and when it was last seen.
type ErrorRecord struct {
	Message string    `json:"message"`
	At      time.Time `json:"at,omitzero"`
	// Class is ClassTransient, ClassPermanent or ClassUnknown, decided from the
	// error's chain when it was recorded.
	Class string `json:"class,omitempty"`
}

// Attempt is one entry of a key's history, oldest first. Its Delay and
// Duration are exact below a second, to the microsecond up to 17.9 minutes
// (every delay of client-go's exponential limiter is exact), coarser beyond.
type Attempt struct {
	At       time.Time       `json:"at,omitzero"`
	Outcome  string          `json:"outcome"`
	Delay    metav1.Duration `json:"delay,omitzero"`
	Error    string          `json:"error,omitempty"`
	Duration metav1.Duration `json:"duration,omitzero"`
	// Trigger is why this attempt ran: TriggerFirst, TriggerRetry,
	// TriggerEvent, TriggerRequeueAfter or TriggerForget.
	Trigger string `json:"trigger,omitempty"`
	// Preempted is set on an event-triggered attempt that ran before the
	// retry its backoff had scheduled.
	Preempted bool `json:"preempted,omitempty"`
	// Class classifies Error (see ErrorRecord.Class).
	Class string `json:"class,omitempty"`
	// By and Reason say who forgot the key and why, on a TriggerForget attempt
	// or a forgotten outcome.
	By     string `json:"by,omitempty"`
	Reason string `json:"reason,omitempty"`
}

// KeyList is the v1/keys response: one page of the filtered, sorted keys.
type KeyList struct {
	// ServerTime is when the page was computed, on the server's clock: the
	// time its states and countdowns are true at.
	ServerTime time.Time `json:"serverTime"`
	// Age is how old the page was when it was sent: identical requests
	// arriving together share one computation, and while the server is busy
	// a page answers identical requests for up to 250ms; so Age is 0s for a
	// fresh page and a few hundred milliseconds at most.
	Age metav1.Duration `json:"age"`
	// Total is how many keys the selected controllers track.
	Total int `json:"total"`
	// Matched is how many of them pass the filter; Items is a page of those.
	Matched int   `json:"matched"`
	Items   []Key `json:"items"`
	// Continue is set when matched keys follow this page: pass it back as
	// the continue parameter (with the same controller, q, state and sort)
	// for the next page. Offset reaches only the first and the last
	// MaxWindow keys; continue goes as deep as the list does.
	Continue string `json:"continue,omitempty"`
}

// KeyDetail is the v1/key response.
type KeyDetail struct {
	ServerTime time.Time `json:"serverTime"`
	Key
}

// ControllerList is the v1/controllers response.
type ControllerList struct {
	ServerTime  time.Time    `json:"serverTime"`
	Controllers []Controller `json:"controllers"`
	// Source describes where the list comes from when it is not a live
	// instrumented process: nil for one. It is said once, here, for the
	// list and every controller and key in it; an instrumented process
	// never sets it (kubectl backoff --from-logs serves a log through this
	// same API, and fills it in).
	Source *ListSource `json:"source,omitempty"`
}

// ListSource describes a list that is not a live instrumented process's:
// one reconstructed from a controller's log (Kind SourceLogs) — how much of
// the log was understood, and what it can and cannot show — or served from
// a snapshot (SnapshotAt), so that every view of its numbers says so.
type ListSource struct {
	// Kind is SourceLogs for a log's list; empty for a snapshot of an
	// instrumented endpoint.
	Kind string `json:"kind,omitempty"`
	// SnapshotAt is, for a list served from a snapshot (kubectl backoff
	// top --file), when it was taken: nothing in it changes, and its
	// states and countdowns are as of then. Zero for a live source.
	SnapshotAt time.Time `json:"snapshotAt,omitzero"`
	// Read says how much of the log was read and understood.
	Read *LogRead `json:"read,omitempty"`
	// SampledAt is when the log first showed the signature of zap's
	// sampler, which controller-runtime's production logger (zap JSON,
	// without --zap-devel) runs: a second with SampledLines "Reconciler
	// error" lines and then 1 in 100 (or two such seconds in a row cut at
	// SampledLines), so failure counts and delays estimated since are too
	// low. Zero when the log shows no such second, or shows it is not
	// sampled (V(5) lines, or more lines in a second than the sampler
	// writes at that pace). A rate alone never sets it.
	SampledAt time.Time `json:"sampledAt,omitzero"`
	// Verbose is whether the log shows V(5) lines (--zap-log-level=5):
	// successes are logged, so its failure counts are consecutive and its
	// attempts' triggers exact. When false a success is not logged: a count
	// runs across any success in between, and triggers are inferred
	// (TriggerSooner, TriggerLate).
	Verbose bool `json:"verbose,omitempty"`
	// SuccessesHow is how the program that wrote the log is made to log the
	// successes its dialect reads, as the dialect's project advises for its
	// logger ("--zap-log-level=5" for controller-runtime on zap, "-v=5" on
	// klog). Empty when the dialect reads no success: no level is advised.
	SuccessesHow string `json:"successesHow,omitempty"`
	// EndsAt is, for a saved log (a file read to its end, not followed),
	// the time of its last line: a saved log has no "now", so its states,
	// ages and countdowns are judged as of that line, and serverTime is
	// this time, however long ago it was. A pipe whose newest line was over
	// an hour old when read (a saved log piped in) counts as saved until a
	// line of now arrives. Zero for a live log (followed, or a pipe of
	// current lines), judged at the clock.
	EndsAt time.Time `json:"endsAt,omitzero"`
}

// Logged reports whether s is a log's (Kind SourceLogs); false for nil, an
// instrumented process.
func (s *ListSource) Logged() bool { return s != nil && s.Kind == SourceLogs }

// Snapshot reports whether s is a snapshot's (SnapshotAt set).
func (s *ListSource) Snapshot() bool { return s != nil && !s.SnapshotAt.IsZero() }

// Ended reports whether s is a saved log's, judged as of its last line
// (EndsAt) rather than at the clock.
func (s *ListSource) Ended() bool { return s != nil && !s.EndsAt.IsZero() }

// LogRead says how much of a log was read, so that a user knows at once
// whether the tool understood their log.
type LogRead struct {
	// Lines is every line read.
	Lines int `json:"lines"`
	// Recognised counts the lines read as records, by dialect: the family of
	// controller and the format ("controller-runtime (JSON)", "Flux (JSON)",
	// "cert-manager (klog text)").
	Recognised map[string]int `json:"recognised,omitempty"`
	// Unreadable counts the lines that look like failures (they hold a
	// failure message of some dialect: "Reconciler error", "Reconciliation
	// failed", …) but could not be read: no key, no controller, cut short.
	// Example is the first of them.
	Unreadable int    `json:"unreadable,omitempty"`
	Example    string `json:"example,omitempty"`
	// Untimed counts the records whose time could not be read (a logger
	// that writes none, or only the seconds since it started, or a time
	// that cannot be true): their times are unknown, and nothing is
	// computed from them.
	Untimed int `json:"untimed,omitempty"`
	// Implausible counts the records whose time cannot be true: before
	// 2000, or more than a day past the reading clock (0001-01-01,
	// 9999-12-31). They are read as untimed, and counted there too.
	Implausible int `json:"implausible,omitempty"`
	// YearAssumed counts the records whose header has no year (klog's,
	// journald's) in a log none of whose lines before them had one: their
	// year is the reading clock's, an assumption.
	YearAssumed int `json:"yearAssumed,omitempty"`
	// Evicted counts the keys dropped because the reader's store was full
	// (it tracks at most a bound of keys, as the instrument's store does:
	// settled and least recently logged first), from EvictedSince, the time
	// of the line that first needed room; what is listed is not all the
	// log held.
	Evicted      int       `json:"evicted,omitempty"`
	EvictedSince time.Time `json:"evictedSince,omitzero"`
	// OutOfOrder counts the records older than a record before them in
	// the log (a log store's export, logs merged from replicas). A saved
	// log is read sorted by time all the same, NewestFirst saying it was
	// newest first (read reversed, then sorted); a live log's older lines
	// count in their keys' histories but change no key's state.
	OutOfOrder  int  `json:"outOfOrder,omitempty"`
	NewestFirst bool `json:"newestFirst,omitempty"`
}

// Controller describes one instrumented controller in the process.
type Controller struct {
	Name string `json:"name"`
	// Kind is the object kind the controller reconciles, when the author named it.
	Kind *GroupVersionKind `json:"kind,omitempty"`
	// Active is false until the controller has built its queue: a replica that is
	// not the leader reports its controllers inactive (standby).
	Active     bool          `json:"active"`
	Limiter    Limiter       `json:"limiter"`
	QueueDepth *int          `json:"queueDepth,omitempty"`
	Keys       int           `json:"keys"`
	Counts     map[State]int `json:"counts"`
	// Forecast counts the retries (backoff and scheduled keys) falling due in
	// each of the next ForecastSeconds seconds after serverTime: the retry
	// herd, seen before it hits. Pending counts all retries still to come.
	Forecast []int `json:"forecast"`
	Pending  int   `json:"pending"`
	// Overflow counts the records of new keys skipped because the store was
	// at its bound (MaxKeys plus one shard's slack), while its eviction made
	// room: not zero means some keys were not tracked for a while.
	Overflow     int64        `json:"overflow,omitempty"`
	Capabilities Capabilities `json:"capabilities"`
}

// SampledLines is how many lines of one message a second controller-
// runtime's production zap logger writes before it samples them (its
// zapcore.NewSamplerWithOptions(core, time.Second, 100, 100)).
const SampledLines = 100

// ForecastSeconds is how far ahead Controller.Forecast looks.
const ForecastSeconds = 60

// GroupVersionKind names an object kind on the wire.
type GroupVersionKind struct {
	Group   string `json:"group"`
	Version string `json:"version"`
	Kind    string `json:"kind"`
}

// Limiter describes a controller's rate limiter.
type Limiter struct {
	// Description is a one-line summary, e.g. "max(item-exponential 5ms..16m40s, bucket 10qps/100)".
	Description string             `json:"description"`
	Components  []LimiterComponent `json:"components"`
}

// LimiterComponent is one part of a limiter. Fields apply by Name: BaseDelay and
// MaxDelay to item-exponential, QPS, Burst and Tokens to bucket, Jitter to jitter.
type LimiterComponent struct {
	Name      string          `json:"name"`
	BaseDelay metav1.Duration `json:"baseDelay,omitzero"`
	MaxDelay  metav1.Duration `json:"maxDelay,omitzero"`
	QPS       float64         `json:"qps,omitempty"`
	Burst     int             `json:"burst,omitempty"`
	// Tokens is the bucket's current token count, read without taking one.
	Tokens *float64 `json:"tokens,omitempty"`
	// Type is the Go type of a limiter the instrument does not know.
	Type string `json:"type,omitempty"`
	// Jitter is the spread of a ComponentJitter: delays are scaled by a
	// random factor in [1-Jitter, 1+Jitter].
	Jitter float64 `json:"jitter,omitempty"`
}

// ComponentJitter names the limiter component that spreads delays at
// random; it chooses no delay of its own, so it is never a DelaySource.
const ComponentJitter = "jitter"

// Capabilities says which actions the endpoint allows on a controller.
type Capabilities struct {
	CanForget  bool `json:"canForget"`
	CanRequeue bool `json:"canRequeue"`
	ReadOnly   bool `json:"readOnly"`
	// Sorts lists the orders v1/keys accepts (Sorts, as this server knows
	// them): a client learns what the server can do from here, never from
	// an error's words. Absent from servers older than this field.
	Sorts []string `json:"sorts,omitempty"`
	// Watch says v1/keys takes watch=true (api.WatchEvent). Absent from
	// servers older than this field: they are polled.
	Watch bool `json:"watch,omitempty"`
	// Watches lists every endpoint that takes watch=true (WatchKeys,
	// WatchErrors, WatchControllers). Absent from servers that watch
	// v1/keys alone (Watch set) or nothing.
	Watches []string `json:"watches,omitempty"`
}

// ForgetRequest is the v1/forget body. Exactly one of Keys or Filter selects
// what to forget.
type ForgetRequest struct {
	Controller string   `json:"controller"`
	Keys       []string `json:"keys,omitempty"`
	// Handles names keys by their Key.Handle (keys that are not valid
	// UTF-8); it adds to Keys.
	Handles []string `json:"handles,omitempty"`
	Filter  *Filter  `json:"filter,omitempty"`
	// Requeue makes the keys ready now (Forget + Add); it needs the queue decorator.
	Requeue bool `json:"requeue,omitempty"`
	// Spread releases a bulk requeue evenly over this window instead of at once.
	Spread metav1.Duration `json:"spread,omitzero"`
	// DryRun reports what would be forgotten and changes nothing.
	DryRun bool `json:"dryRun,omitempty"`
	// Reason is why the keys are forgotten, e.g. "dependency restored"; it is
	// recorded with the reset, logged, and put in the object's Event. At most
	// MaxReasonBytes.
	Reason string `json:"reason,omitempty"`
	// User is who the client says is asking, e.g. the kubeconfig's user. When
	// the endpoint knows the authenticated user (mounted behind the metrics
	// server's filter, see instrument/authfilter) it records that and ignores
	// this claim; otherwise it records the claim followed by UnverifiedSuffix.
	// At most MaxUserBytes.
	User string `json:"user,omitempty"`
}

// HistorySize is how many attempts a key's History holds at most, oldest
// first: a full history may have dropped older ones.
const HistorySize = 16

// Bounds of ForgetRequest's free text.
const (
	MaxReasonBytes = 512
	MaxUserBytes   = 256
)

// UnverifiedSuffix ends a recorded user (Reset.User, Attempt.By) that is the
// client's own claim, not an authenticated identity: "alice (unverified)".
const UnverifiedSuffix = " (unverified)"

// Filter selects keys as v1/keys does: Q is a substring of the key or its last
// error; Error, in Q's syntax, must match the last error alone (an error
// group's pattern, beside the user's own Q); States keeps only keys in one
// of these states. An empty filter selects all.
type Filter struct {
	Q      string  `json:"q,omitempty"`
	Error  string  `json:"error,omitempty"`
	States []State `json:"state,omitempty"`
}

// ForgetResponse reports what a forget did.
type ForgetResponse struct {
	ServerTime time.Time `json:"serverTime"`
	Controller string    `json:"controller"`
	// Count is how many keys were (or, with DryRun, would be) forgotten.
	Count    int  `json:"count"`
	DryRun   bool `json:"dryRun,omitempty"`
	Requeued bool `json:"requeued"`
	// PendingRetryKept is true when counters were reset but the keys were not
	// requeued (no requeue asked, or the queue is not instrumented): a pending
	// retry keeps its time.
	PendingRetryKept bool `json:"pendingRetryKept,omitempty"`
	// Keys lists the forgotten keys with what was reset, up to MaxForgetReport.
	Keys      []ForgottenKey `json:"keys"`
	Truncated bool           `json:"truncated,omitempty"`
	Message   string         `json:"message"`
}

// ForgottenKey is one key a forget reset.
type ForgottenKey struct {
	Key      string `json:"key"`
	State    State  `json:"state"`
	Failures int    `json:"failures"`
	// ReleaseIn is the key's slot in a spread retry.
	ReleaseIn metav1.Duration `json:"releaseIn,omitzero"`
	// EarlierRetryIn, when set, is a retry already pending that runs the
	// key before its slot: both queues keep the sooner of two ready times
	// for one key (client-go's delaying queue, controller-runtime's
	// priority queue), so that retry runs it, at EarlierRetryIn.
	EarlierRetryIn metav1.Duration `json:"earlierRetryIn,omitzero"`
}

// ErrorGroupList is the v1/errors response: the matched keys' last errors,
// grouped by fingerprint, largest group first.
type ErrorGroupList struct {
	// ServerTime and Age are as in KeyList.
	ServerTime time.Time       `json:"serverTime"`
	Age        metav1.Duration `json:"age"`
	// Total is how many keys the selected controllers track; Matched how many
	// pass the state filter and have an error. The groups' counts add up to
	// Matched.
	Total   int          `json:"total"`
	Matched int          `json:"matched"`
	Groups  []ErrorGroup `json:"groups"`
}

// ErrorGroup is the keys of one controller whose last error has one
// fingerprint: the message with numbers, addresses, ids and quoted names
// folded, so "pod \"a-1\" not found" and "pod \"b-7\" not found" group.
type ErrorGroup struct {
	Controller  string `json:"controller"`
	Fingerprint string `json:"fingerprint"`
	// Message is one real message of the group, as recorded.
	Message string `json:"message"`
	Class   string `json:"class,omitempty"`
	// Count is the exact number of keys in the group.
	Count int `json:"count"`
	// FirstSeen is when the oldest failure streak among the group's keys
	// began (their firstFailureAt; the error's time for a key with none);
	// LastSeen is the newest time one of them recorded this error.
	FirstSeen time.Time `json:"firstSeen"`
	LastSeen  time.Time `json:"lastSeen"`
	// Examples names a few of the group's keys, the first in key order.
	Examples []string `json:"examples"`
}

// ErrorResponse is the one error shape every endpoint returns.
type ErrorResponse struct {
	Error ErrorBody `json:"error"`
}

// ErrorBody carries the status code, a Kubernetes-style reason and a message
// naming the problem. Field names the query parameter or body field at
// fault, as a Kubernetes Status names details.causes[].field: every 400
// carries one, so a client maps it to its own flag without reading Message.
type ErrorBody struct {
	Code   int    `json:"code"`
	Reason string `json:"reason"`
	Field  string `json:"field,omitempty"`
	// Value, when one value of Field was refused, is that value as sent
	// (a state of --state's list): what a client decides on, never the
	// message's words.
	Value   string `json:"value,omitempty"`
	Message string `json:"message"`
}
