package api

import (
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

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
	// this time, however long ago it was. A pipe or a followed file (top)
	// whose newest line was over an hour old when read counts as saved
	// until a line of now arrives. Zero for a live log (a stream, a pipe
	// or a followed file of current lines), judged at the clock.
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
	// Ended says a log followed live (a pipe) has ended: no line will come
	// after those read, though countdowns still run at the clock.
	Ended bool `json:"ended,omitempty"`
	// Stopped says why a log followed live stopped being read before its
	// end (a gzip cut off, an I/O error), and what to do: the keys listed
	// are those of the lines read before. Empty while the read goes on, or
	// when it ended as the input did.
	Stopped string `json:"stopped,omitempty"`
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
	// herd, seen before it hits; the first second counts those already due
	// (a log's key past its retry time, its retry not yet logged). Pending
	// counts all retries still to come, those due included.
	Forecast []int `json:"forecast"`
	Pending  int   `json:"pending"`
	// Overflow counts the records of new keys skipped because the store was
	// at its bound (MaxKeys plus one shard's slack), while its eviction made
	// room: not zero means some keys were not tracked for a while.
	Overflow     int64        `json:"overflow,omitempty"`
	Capabilities Capabilities `json:"capabilities"`
	// SuccessesHow is, for a controller read off a log, how the program
	// that wrote it is made to log this controller's successes when that
	// holds for some of its controllers only ("--v=4 on
	// kube-controller-manager" for those that log each sync's end at V(4),
	// none for its HPA's): ListSource.SuccessesHow is then empty. Empty
	// when no level shows them, or the log's own advice holds.
	SuccessesHow string `json:"successesHow,omitempty"`
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
	// Estimated says the component was not read from the queue but
	// estimated (log mode: a bucket replayed over the log's failure lines):
	// its Tokens, and what they forecast, are estimates.
	Estimated bool `json:"estimated,omitempty"`
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
