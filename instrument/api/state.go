package api

// APIVersion is the version segment of every endpoint path (…/v1/keys). Clients
// refuse a server that does not list it.
const APIVersion = "v1"

// State is the verdict on what a key is doing right now.
type State string

// The verdicts, as DESIGN.md defines them.
const (
	// StateBackoff: the last reconcile failed (or asked for Requeue); the key waits
	// out the rate limiter until NextRetryAt.
	StateBackoff State = "backoff"
	// StateScheduled: the last reconcile returned RequeueAfter; not a failure.
	StateScheduled State = "scheduled"
	// StateQueued: ready and waiting for a free worker.
	StateQueued State = "queued"
	// StateRunning: a reconcile is in progress since StartedAt.
	StateRunning State = "running"
	// StateFailed: a terminal error; not retried until the object changes.
	StateFailed State = "failed"
	// StateIdle: converged; the backoff was forgotten.
	StateIdle State = "idle"
)

// StateUnknown exists only for keys reconstructed from logs (Source
// SourceLogs): a key gone quiet after an error, whose success, if any, was
// not logged. It is not in States.
const StateUnknown State = "unknown"

// States lists every verdict in the order the UI shows them.
var States = []State{StateBackoff, StateScheduled, StateQueued, StateRunning, StateFailed, StateIdle}

// Delay sources: which component chose a key's current delay.
const (
	SourceItemExponential = "item-exponential"
	SourceBucket          = "bucket"
	SourceRequeueAfter    = "requeue-after"
	SourceLimiter         = "limiter"
	// SourceSpread marks a retry released by a bulk forget with a spread.
	SourceSpread = "spread"
	// SourceSpacing is log mode's: a delay estimated from the spacing of
	// the key's own failure lines, longer than the assumed limiter's; the
	// component that chose it is not known (a limiter the log does not
	// name). It is an estimate, never a limiter's own word.
	SourceSpacing = "spacing"
	// SourceStated is log mode's: a delay the failure's line states in its
	// own words ("Retrying in 2m40s", Flux's "next try in 1m0s"), exact;
	// Key.DelayWords quotes them. Not RequeueAfter: the log does not say
	// which call scheduled it.
	SourceStated = "stated"
	// SourceQueue is log mode's: a retry time controller-runtime's priority
	// queue logged for the key itself (its "workqueue_items" line, every
	// 10s at V(5): the key's readyAt), exact, not an estimate. Key.Delay is
	// the one estimated when the queue's time confirms it, else the time
	// from the failure's line to it.
	SourceQueue = "queue"
	// SourceItemFixed is log mode's: a per-item limiter that waits the same
	// interval after every failure (client-go's FixedItemIntervalRateLimiter,
	// as kube-controller-manager's HPA controller runs on its resync period),
	// known from the controller's dialect. Its limiter component, of this
	// name, has BaseDelay == MaxDelay: the interval.
	SourceItemFixed = "item-fixed"
	// SourceDoubling is log mode's: a delay read from a key's own failure
	// gaps that double (10s, 20s: the controller's own per-item
	// exponential, slower than the assumed limiter's): twice the last gap,
	// an estimate.
	SourceDoubling = "doubling"
	// SourceWaited is log mode's: a delay estimated from the one the
	// failure's line states its attempt waited in the queue
	// (virtual-kubelet's delayedViaRateLimit=, the limiter's delay after
	// the key's previous failure): the per-item exponential's next step,
	// twice it up to the cap. Key.DelayWords quotes the field.
	SourceWaited = "waited"
)

// SourceLogs is Key.Source for a key reconstructed from a controller's logs,
// and ListSource.Kind for a list of them.
const SourceLogs = "logs"

// Triggers: why an attempt ran (Attempt.Trigger).
const (
	// TriggerFirst: the key's first reconcile since it was tracked.
	TriggerFirst = "first"
	// TriggerRetry: a rate-limited retry, after the delay the limiter chose.
	TriggerRetry = "retry"
	// TriggerEvent: an add that was not a retry (a watch event, a resync).
	TriggerEvent = "event"
	// TriggerRequeueAfter: the time a RequeueAfter asked for came.
	TriggerRequeueAfter = "requeue-after"
	// TriggerForget: a user's "retry now" (forget with requeue).
	TriggerForget = "forget"
	// TriggerSooner and TriggerLate are read from a log that does not show
	// successes (SourceLogs, ListSource.Verbose false), where why an
	// attempt ran is inferred: sooner, it came well before the retry its
	// last failure scheduled — a watch event, or a success (or a forget) not
	// logged and then an event; late, well after it — the retry succeeded
	// unlogged and an event came later, or it waited for a worker.
	TriggerSooner = "sooner"
	TriggerLate   = "late"
	// TriggerNewStreak is also read from a log without successes: the
	// attempt starts a fresh ramp (failures whose gaps grow as the limiter's
	// delays from a count of 1, far shorter than the running count allows),
	// which only a Forget makes: a success not logged came before it.
	TriggerNewStreak = "new-streak"
)

// Error classes (ErrorRecord.Class, Attempt.Class).
const (
	// ClassTransient: a failure that retrying can fix (conflict, timeout,
	// throttling, 5xx, connection refused or reset).
	ClassTransient = "transient"
	// ClassPermanent: a failure retrying will not fix (invalid, forbidden,
	// not found, a terminal error).
	ClassPermanent = "permanent"
	// ClassUnknown: nothing in the error's chain says which.
	ClassUnknown = "unknown"
)

// Resets (Reset.By).
const (
	// ResetForget: a forget through the endpoint.
	ResetForget = "forget"
	// ResetGaveUp: the controller forgot the key without a success and
	// without requeueing it.
	ResetGaveUp = "give-up"
)

// Outcomes of one attempt in a key's history.
const (
	OutcomeError        = "error"
	OutcomeTerminal     = "terminal"
	OutcomeRequeueAfter = "requeue-after"
	OutcomeRequeue      = "requeue"
	OutcomeSuccess      = "success"
	OutcomeForgotten    = "forgotten"
)

// StateNames is States as a comma-separated list, for flag help and messages.
func StateNames() string { return orList(States) }

// SortNames is Sorts as a comma-separated list, for flag help and messages.
func SortNames() string { return orList(Sorts) }
