package api

import "fmt"

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

// ParseState returns s as a State, or an error that lists the valid ones.
func ParseState(s string) (State, error) {
	for _, v := range States {
		if State(s) == v {
			return v, nil
		}
	}
	return "", fmt.Errorf("%q is not a state; use %s", s, orList(States))
}

// StateNames is States as a comma-separated list, for flag help and messages.
func StateNames() string { return orList(States) }

// SortNames is Sorts as a comma-separated list, for flag help and messages.
func SortNames() string { return orList(Sorts) }
