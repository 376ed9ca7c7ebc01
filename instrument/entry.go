package instrument

import (
	"math"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

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

// Triggers, stored as a byte: why an attempt ran.
const (
	trigNone uint8 = iota
	trigFirst
	trigRetry
	trigEvent
	trigRequeueAfter
	trigForget
)

var triggerNames = [...]string{"", api.TriggerFirst, api.TriggerRetry, api.TriggerEvent, api.TriggerRequeueAfter, api.TriggerForget}

// Error classes, stored as a byte.
const (
	classNone uint8 = iota
	classTransient
	classPermanent
	classUnknown
)

var classNames = [...]string{"", api.ClassTransient, api.ClassPermanent, api.ClassUnknown}

// reset is the last reset of a key's failure count that was not a success.
type reset struct {
	at           int64
	failures     int32
	by           string // api.ResetForget or api.ResetGaveUp
	user, reason string
}

// entry is everything recorded about one key. It is kept small (timestamps as
// int64, enums as bytes, history grown on demand) because a controller may track
// 100,000 of them. Every field is guarded by the owning shard's mutex.
type entry[T comparable] struct {
	// First, together, what a limiter's When and Forget touch: the
	// priority queue calls them under its lock, and every cache line they
	// miss is every worker's wait.
	lastSeen         int64
	nextRetry, delay int64
	firstFailureAt   int64
	queuedAt         int64
	failures         int32
	requeues         int32 // a fused limiter's count (see fused): NumRequeues
	stored, source   uint8
	earlier          bool  // nextRetry is a sooner retry kept over the last delay
	provisional      bool  // nextRetry is a RequeueAfter the queue has yet to start
	outcomeSinceGet  bool  // some outcome was recorded since the queue handed the key out
	pendingDelay     bool  // the last attempt awaits its delay from the limiter
	head             uint8 // next slot once history is full
	errClass         uint8 // of lastErr

	key  string
	item T

	lastErrAt       int64
	lastSuccessAt   int64
	lastReconcileAt int64
	lastDuration    int64
	lastEventAt     int64
	startedAt       int64
	lastErr         text
	lastReset       *reset   // rare: allocated only on a forget or give-up
	history         []slot   // a ring once full (see addAttempt)
	errs            []errRef // the errors history refers to
	totalFailures   int32
	reconciles      int32
	sameErrorCount  uint16 // saturates: 65,535 is years of retries at the cap
	trigger         uint8  // why the running (or last) attempt ran
	readyCause      uint8  // what made the key ready while queuedAt is set
	running         bool
	preempted       bool  // the running attempt's event came before a pending retry
	readyPreempted  bool  // the add that set queuedAt came before a pending retry
	shard           uint8 // the index of the shard holding it, for lockHeld
	removed         bool  // evicted: a record holding e finds the key's entry anew (see lockHeld)
}

// setReset records r as the last reset, reusing the entry's record: a
// controller that gives up on keys again and again allocates once per key.
func (e *entry[T]) setReset(r reset) {
	if e.lastReset == nil {
		e.lastReset = new(reset)
	}
	*e.lastReset = r
}

// clearRetry forgets the pending retry time and the delay that set it.
func (e *entry[T]) clearRetry() {
	e.nextRetry, e.delay, e.source, e.earlier, e.provisional = 0, 0, srcNone, false, false
}

// schedule records that the queue will make the key ready d after now, the
// delay chosen by src, applying the rule of the real queue: both client-go's
// delaying queue and the priority queue keep the sooner of two ready times
// for one key, and the priority queue leaves a key that is already ready (an
// add arrived while it ran) ready. The delay is recorded either way: it is
// what the limiter decided, evidence the explanation needs.
func (e *entry[T]) schedule(now int64, d time.Duration, src uint8, pq bool) {
	e.delay, e.source = int64(d), src
	at := now + int64(d)
	switch {
	case pq && e.queuedAt != 0:
		// Ready already: the priority queue does not move it back to waiting.
		e.nextRetry, e.earlier = 0, false
	case e.nextRetry > now && e.nextRetry <= at:
		e.earlier = e.nextRetry < at
	default:
		e.nextRetry, e.earlier = at, false
	}
}

// begin records a worker taking the key at now, and why it ran: the add
// that made it ready, or the retry that came due.
func (e *entry[T]) begin(now int64, pq bool) {
	if e.running {
		return
	}
	e.running, e.startedAt = true, now
	e.preempted = false
	switch {
	case e.reconciles == 0 && len(e.history) == 0:
		e.trigger = trigFirst
	case e.queuedAt != 0:
		e.trigger, e.preempted = e.readyCause, e.readyPreempted
	case e.nextRetry != 0 && e.nextRetry <= now:
		switch e.source {
		case srcRequeueAfter:
			e.trigger = trigRequeueAfter
		case srcSpread:
			e.trigger = trigForget
		default:
			e.trigger = trigRetry
		}
	default:
		e.trigger = trigEvent // an add the queue decorator did not see
	}
	e.queuedAt, e.readyCause, e.readyPreempted = 0, trigNone, false
	// The priority queue holds one item per key: handing it out consumes a
	// wait still to come. The delaying queue's wait is separate from its ready
	// queue and still fires. A retry that came due stays as the evidence of
	// what released this attempt.
	if pq && e.nextRetry > now {
		e.nextRetry, e.earlier = 0, false
	}
}

// ready records an add that makes the key ready now: a watch event, or a
// user's retry now. The priority queue moves a waiting key to ready (its wait
// is gone); the delaying queue leaves the wait to fire once more.
func (e *entry[T]) ready(now int64, cause uint8, pq bool) {
	pending := e.nextRetry > now && e.stored == stBackoff
	if e.queuedAt == 0 {
		e.queuedAt, e.readyCause, e.readyPreempted = now, cause, pending
	}
	if pq && e.nextRetry > now {
		e.nextRetry, e.earlier = 0, false
	}
}

// isLastError reports whether msg is the last error recorded (as truncated).
func (e *entry[T]) isLastError(msg string) bool {
	last := e.lastErr.String()
	return last != "" && (msg == last || truncatedIs(msg, last, maxErrorBytes))
}

// setError records msg as the last error, of class, counting repeats of the
// same one; same is isLastError(msg), which the caller has often asked
// already (comparing a long message costs as much as recording it).
func (e *entry[T]) setError(msg string, same bool, class uint8, now int64) {
	e.errClass = class
	if same {
		if e.sameErrorCount < math.MaxUint16 {
			e.sameErrorCount++
		}
	} else {
		e.lastErr = internText(msg)
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
	case e.stored == stIdle && e.nextRetry > now:
		// A success with a wait still pending in the delaying queue: the key
		// runs once more when it fires.
		return api.StateScheduled
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
	if e.lastErr != (text{}) {
		k.LastError = &api.ErrorRecord{Message: e.lastErr.String(), At: unixTime(e.lastErrAt), Class: classNames[e.errClass]}
	}
	k.EarlierRetry = e.earlier
	k.Requeued = e.lastOutcome() == outRequeue
	if r := e.lastReset; r != nil {
		k.LastReset = &api.Reset{At: unixTime(r.at), By: r.by, Failures: int(r.failures), User: r.user, Reason: r.reason}
	}
	if withHistory {
		k.History = e.attempts()
	}
	return k
}

func unixTime(ns int64) time.Time {
	if ns == 0 {
		return time.Time{}
	}
	return time.Unix(0, ns).UTC()
}
