package instrument

import (
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// historySize is how many attempts a key remembers.
const historySize = 16

// Stored states. The reported verdict is derived from these at read time
// (see entry.state): a backoff whose time has come is "queued", for example.
const (
	stIdle uint8 = iota
	stBackoff
	stScheduled
	stFailed
)

var storedStates = [...]api.State{stIdle: api.StateIdle, stBackoff: api.StateBackoff, stScheduled: api.StateScheduled, stFailed: api.StateFailed}

// Delay sources, stored as a byte.
const (
	srcNone uint8 = iota
	srcItemExponential
	srcBucket
	srcRequeueAfter
	srcLimiter
	srcSpread
)

var sourceNames = [...]string{"", api.SourceItemExponential, api.SourceBucket, api.SourceRequeueAfter, api.SourceLimiter, api.SourceSpread}

// Outcomes, stored as a byte.
const (
	outError uint8 = iota
	outTerminal
	outRequeueAfter
	outRequeue
	outSuccess
	outForgotten
)

var outcomeNames = [...]string{api.OutcomeError, api.OutcomeTerminal, api.OutcomeRequeueAfter, api.OutcomeRequeue, api.OutcomeSuccess, api.OutcomeForgotten}

// attempt is one history entry. Times are Unix nanoseconds of the store's clock.
type attempt struct {
	at       int64
	delay    time.Duration
	duration time.Duration
	err      string // interned
	outcome  uint8
}

// entry is everything recorded about one key. It is kept small (timestamps as
// int64, enums as bytes, history grown on demand) because a controller may track
// 100,000 of them. Every field is guarded by the owning shard's mutex.
type entry[T comparable] struct {
	key  string
	item T

	nextRetry, delay int64
	lastErrAt        int64
	firstFailureAt   int64
	lastSuccessAt    int64
	lastReconcileAt  int64
	lastDuration     int64
	lastEventAt      int64
	queuedAt         int64
	startedAt        int64
	lastSeen         int64
	lastErr          string
	history          []attempt
	head             uint8 // next slot once history is full
	failures         int32
	totalFailures    int32
	reconciles       int32
	sameErrorCount   int32
	stored, source   uint8
	running          bool
	outcomeSinceGet  bool // some outcome was recorded since the queue handed the key out
	pendingDelay     bool // the last attempt awaits its delay from the limiter
}

// addAttempt appends to the history ring.
func (e *entry[T]) addAttempt(a attempt) {
	if len(e.history) < historySize {
		e.history = append(e.history, a)
		return
	}
	e.history[e.head] = a
	e.head = (e.head + 1) % historySize
}

// lastAttempt returns the newest history entry, or nil.
func (e *entry[T]) lastAttempt() *attempt {
	n := len(e.history)
	if n == 0 {
		return nil
	}
	if n < historySize {
		return &e.history[n-1]
	}
	return &e.history[(int(e.head)+historySize-1)%historySize]
}

// setError records msg as the last error, counting repeats of the same one.
func (e *entry[T]) setError(in *interner, msg string, now int64) {
	if e.lastErr != "" && (msg == e.lastErr || truncatedIs(msg, e.lastErr, maxErrorBytes)) {
		e.sameErrorCount++
	} else {
		e.lastErr = in.intern(msg)
		e.sameErrorCount = 1
	}
	e.lastErrAt = now
}

// state derives the verdict at now.
func (e *entry[T]) state(now int64) api.State {
	switch {
	case e.running:
		return api.StateRunning
	case e.queuedAt != 0:
		return api.StateQueued
	case (e.stored == stBackoff || e.stored == stScheduled) && e.nextRetry != 0 && e.nextRetry <= now:
		return api.StateQueued
	}
	return storedStates[e.stored]
}

// view copies the entry into its wire form.
func (e *entry[T]) view(controller string, now int64, withHistory bool) api.Key {
	k := api.Key{
		Controller:      controller,
		Key:             e.key,
		State:           e.state(now),
		Failures:        int(e.failures),
		TotalFailures:   int(e.totalFailures),
		Reconciles:      int(e.reconciles),
		NextRetryAt:     unixTime(e.nextRetry),
		Delay:           metav1.Duration{Duration: time.Duration(e.delay)},
		DelaySource:     sourceNames[e.source],
		SameErrorCount:  int(e.sameErrorCount),
		FirstFailureAt:  unixTime(e.firstFailureAt),
		LastSuccessAt:   unixTime(e.lastSuccessAt),
		LastReconcileAt: unixTime(e.lastReconcileAt),
		LastDuration:    metav1.Duration{Duration: time.Duration(e.lastDuration)},
		LastEventAt:     unixTime(e.lastEventAt),
		QueuedAt:        unixTime(e.queuedAt),
		StartedAt:       unixTime(e.startedAt),
	}
	if e.lastErr != "" {
		k.LastError = &api.ErrorRecord{Message: e.lastErr, At: unixTime(e.lastErrAt)}
	}
	if withHistory {
		k.History = e.attempts()
	}
	return k
}

// attempts returns the history oldest first.
func (e *entry[T]) attempts() []api.Attempt {
	out := make([]api.Attempt, 0, len(e.history))
	start := 0
	if len(e.history) == historySize {
		start = int(e.head)
	}
	for i := range e.history {
		a := e.history[(start+i)%len(e.history)]
		out = append(out, api.Attempt{
			At:       unixTime(a.at),
			Outcome:  outcomeNames[a.outcome],
			Delay:    metav1.Duration{Duration: a.delay},
			Error:    a.err,
			Duration: metav1.Duration{Duration: a.duration},
		})
	}
	return out
}

func unixTime(ns int64) time.Time {
	if ns == 0 {
		return time.Time{}
	}
	return time.Unix(0, ns).UTC()
}
