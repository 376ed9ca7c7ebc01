package logs

import (
	"time"
	"unicode/utf8"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// maxErrorBytes bounds the error text kept per key, as the instrument's does.
const maxErrorBytes = 4 << 10

// truncateError cuts msg to maxErrorBytes at a rune boundary, marked with "…".
func truncateError(msg string) string {
	if len(msg) <= maxErrorBytes {
		return msg
	}
	cut := maxErrorBytes - len("…")
	for cut > 0 && !utf8.RuneStart(msg[cut]) {
		cut--
	}
	return msg[:cut] + "…"
}

// streakSlack is added to twice the expected delay before a late failure is
// read as the start of a new streak (see failed).
const streakSlack = 10 * time.Second

// preemptSlack is how much earlier than its expected retry a failure must
// come to be read as triggered by an event: timestamps have whole seconds.
const preemptSlack = time.Second

// endInferred ends the key's streak when a failure at at comes so late that
// the retry in between must have succeeded. At the default verbosity
// successes are not logged, so a streak's end is inferred: a failure that
// comes more than twice its expected delay (plus streakSlack) after the
// previous one starts a new streak, because the retry in between must have
// run, and it would have been logged had it failed. (A controller whose
// workers are all busy for that long is misread.)
//
// But a key whose failures come on a steady period (a capped limiter:
// kube-controller-manager's namespace controller every 60s) is one streak
// retried, not successes and events at a metronome's pace: the streak the
// period's first gap ended is restored. So is a key whose gaps double, on
// the controller's own exponential (noteDoubling), slower than l; and so
// is one whose late gap is one of l's own delays, for a count the log did
// not show (rampGap). A failure late only for a delay read off the key's
// spacing is a guessed restart, which the next failure confirms or drops
// (guessedrestart.go); endInferred reports whether it confirmed one.
func (e *entry) endInferred(at time.Time, l Limiter) bool {
	if at.IsZero() {
		return false
	}
	gap := time.Duration(0)
	if !e.lastFailAt.IsZero() && at.After(e.lastFailAt) {
		gap = at.Sub(e.lastFailAt)
	}
	coarse := coarseness(e.lastFailAt, at)
	if e.confirmRestart(at, gap, coarse, l) {
		e.lastFailAt, e.lastGap, e.ended.failures, e.doubling = at, gap, 0, 0
		return true
	}
	if e.conflictResolved(at, gap, coarse, l) {
		e.lastFailAt, e.lastGap, e.doubling = at, gap, 0
		return false
	}
	period := steady(e.lastGap, gap)
	doubling := e.noteDoubling(e.lastGap, gap, coarse, l)
	e.lastFailAt, e.lastGap = at, gap
	if period || doubling {
		if e.failures == 1 && e.ended.failures > 0 {
			e.failures += e.ended.failures
			e.firstFailure = e.ended.first
		}
		e.ended.failures = 0
		return false
	}
	e.ended.failures = 0
	if e.state == api.StateBackoff && !e.nextRetry.IsZero() && at.After(e.nextRetry.Add(e.delay+streakSlack)) && !l.rampGap(gap, coarse) && !e.guessRestart(at, l) {
		// The unlogged success forgot the key; only an event re-adds it.
		e.ended.failures, e.ended.first = e.failures, e.firstFailure
		e.endStreak(api.StateIdle)
		e.endedUnlogged = true
	}
	return false
}

// failed applies a (non-terminal) reconcile error. Every error goes through
// the limiter, so the count goes up whatever triggered the reconcile. x is
// what the controller's limiter would do with it (its bucket's delay read
// from the log); withBucket says whether the controller runs that bucket.
//
// A line that states its next retry (Flux's "next try in 1m0s") sets it
// exactly. A line whose time is unknown counts, but says nothing of when:
// the key's times stay as they were, its retry time unknown.
func (e *entry) failed(r *Record, x estimate, withBucket bool, classes *classCache) {
	a := api.Attempt{At: r.At, Outcome: api.OutcomeError, Error: r.Error}
	pending := e.pending(r.At)
	e.reconciled(r, &a)
	e.failures++
	e.totalFailures++
	if e.failures == 1 && !e.countReset {
		// The one rule for a streak's start: its first failure's time (zero:
		// unknown). A forget restarts the count, not the streak.
		e.firstFailure = r.At
	}
	e.state = api.StateBackoff
	e.backedOff(r, x, withBucket, pending)
	a.Delay = metav1.Duration{Duration: e.delay}
	e.recordError(r, &a, classes)
	e.addAttempt(a)
}

// pending is the retry (or RequeueAfter) still waiting in the queue when a
// reconcile at at ran before it: an event preempted it. Zero otherwise.
func (e *entry) pending(at time.Time) time.Time {
	if trigger, preempted := e.trigger(at); trigger == api.TriggerEvent && preempted {
		return e.nextRetry
	}
	return time.Time{}
}

// backedOff sets the key's pending retry after a failure (or a Requeue:
// true) logged by r. earlier is a retry still pending from before (see
// pending).
func (e *entry) backedOff(r *Record, x estimate, withBucket bool, earlier time.Time) {
	e.est, e.stated, e.failAt, e.earlier = x, r.RetryIn > 0, r.At, earlier
	e.delayWords = ""
	if e.stated {
		e.delay, e.delaySource, e.delayWords = r.RetryIn, api.SourceStated, r.RetryWords
	} else {
		e.delay, e.delaySource = x.delay(withBucket)
		if e.delaySource == api.SourceWaited {
			e.delayWords = r.WaitedWords
		}
	}
	e.setNextRetry(withBucket)
}

// setNextRetry is the retry after the last failure's delay; unknown when
// the failure's time is. On a classic queue (read from its bucket: the
// classic queue's default limiter and a client-go queue's have one) a retry
// an event preempted stays pending beside the new one, and the delaying
// queue keeps the sooner, as the instrument's EarlierRetry says; the
// priority queue holds one ready time per key, which the event replaced.
func (e *entry) setNextRetry(classic bool) {
	e.nextRetry = time.Time{}
	if e.failAt.IsZero() {
		return
	}
	e.nextRetry = e.failAt.Add(e.delay)
	if classic && !e.earlier.IsZero() && e.earlier.Before(e.nextRetry) {
		e.nextRetry = e.earlier
	}
}

// reestimate recomputes the pending retry when the controller's limiter is
// read anew (the log's pace showed its token bucket, or stopped showing it).
func (e *entry) reestimate(withBucket bool) {
	if e.state != api.StateBackoff || e.stated || e.failures == 0 {
		return
	}
	e.delay, e.delaySource = e.est.delay(withBucket)
	e.setNextRetry(withBucket)
	// The failure's row says the delay its retry is now expected after, as
	// the instrument's row says the delay its limiter chose: the next
	// attempt's trigger (retry, late, sooner) is judged against this, and
	// its "retry after" is read from this row.
	if l := e.history.last(); l != nil && l.At.Equal(e.failAt) &&
		(l.Outcome == api.OutcomeError || l.Outcome == api.OutcomeRequeue) {
		l.Delay = metav1.Duration{Duration: e.delay}
	}
}

// spacing is how long after the streak's previous failure (or requeue) a
// new one at at came; zero when either time is unknown.
func (e *entry) spacing(at time.Time) time.Duration {
	if e.state != api.StateBackoff || e.failures == 0 || e.failAt.IsZero() || at.IsZero() || at.Before(e.failAt) {
		return 0
	}
	return at.Sub(e.failAt)
}

// endStreak forgets the key's failures, as a success or RequeueAfter does.
func (e *entry) endStreak(st api.State) {
	e.failures, e.firstFailure, e.state, e.countReset = 0, time.Time{}, st, false
	e.est, e.stated, e.failAt, e.earlier = estimate{}, false, time.Time{}, time.Time{}
}

// terminal applies a terminal error: no requeue, and no Forget either, so
// the failure count stays as it was.
func (e *entry) terminal(r *Record, classes *classCache) {
	a := api.Attempt{At: r.At, Outcome: api.OutcomeTerminal, Error: r.Error}
	e.reconciled(r, &a)
	e.totalFailures++
	e.state, e.nextRetry, e.delay, e.delaySource = api.StateFailed, time.Time{}, 0, ""
	e.recordError(r, &a, classes)
	e.addAttempt(a)
}

// gaveUp applies the controller giving up on the key after a failure
// (client-go's handleErr after its last retry: Forget, no requeue): the
// failure counts, then the count goes back to 0 by a give-up reset, and the
// key is failed until the next change to its object, as the instrument
// records a Forget that finds a failure streak.
//
// A give-up line that states the count (r.Retries: "Giving up syncing
// claim because failures >= threshold" failures=4) keeps it: the count is
// the queue's, a fact, and a handler that says it gives up at a count it
// reads from NumRequeues may not Forget at all —
// sig-storage-lib-external-provisioner v13 does not ("Done but do not
// Forget", controller.go:993, :1043), so its queue keeps NumRequeues and
// the next failure continues from it. Reading it as a Forget showed
// "failed 0" beside a line that says failures=4.
func (e *entry) gaveUp(r *Record, classes *classCache) {
	a := api.Attempt{At: r.At, Outcome: api.OutcomeError, Error: r.Error}
	e.reconciled(r, &a)
	e.failures++
	if r.Retries > 0 {
		e.failures = r.Retries
	}
	e.totalFailures++
	if e.failures == 1 && !e.countReset {
		e.firstFailure = r.At
	}
	kept := r.Retries > 0
	e.lastReset = &api.Reset{At: r.At, By: api.ResetGaveUp, Failures: e.failures, Kept: kept}
	if !kept {
		e.failures, e.countReset = 0, true
	}
	e.state, e.nextRetry, e.delay, e.delaySource = api.StateFailed, time.Time{}, 0, ""
	e.est, e.stated, e.failAt, e.earlier = estimate{}, false, time.Time{}, time.Time{}
	e.recordError(r, &a, classes)
	e.addAttempt(a)
}

// settle applies a success or a RequeueAfter: both Forget the key.
func (e *entry) settle(r *Record, st api.State, outcome string, after time.Duration) {
	a := api.Attempt{At: r.At, Outcome: outcome, Delay: metav1.Duration{Duration: after}}
	e.reconciled(r, &a)
	e.endStreak(st)
	e.delay, e.delaySource, e.nextRetry = 0, "", time.Time{}
	if after > 0 {
		e.delay, e.delaySource = after, api.SourceRequeueAfter
		if !r.At.IsZero() {
			e.nextRetry = r.At.Add(after)
		}
	}
	e.addAttempt(a)
}

// requeue applies Requeue: true: a rate-limited requeue without an error.
func (e *entry) requeue(r *Record, x estimate, withBucket bool) {
	a := api.Attempt{At: r.At, Outcome: api.OutcomeRequeue}
	pending := e.pending(r.At)
	e.reconciled(r, &a)
	e.failures++
	e.state = api.StateBackoff
	e.backedOff(r, x, withBucket, pending)
	a.Delay = metav1.Duration{Duration: e.delay}
	e.addAttempt(a)
}

// reconciled counts a finished reconcile and says why it ran. When its
// "Reconciling" line was seen (V(5)), the reason was read then, and the
// line also says how long it took.
func (e *entry) reconciled(r *Record, a *api.Attempt) {
	// Why it ran is read before it counts: the key's first reconcile in the
	// log has no known cause (the log may start mid-stream), and trigger
	// says so only while no reconcile is counted; counted first, every
	// key's first failure read as an event.
	a.Trigger, a.Preempted = e.trigger(r.At)
	e.reconciles++
	if !r.At.IsZero() {
		e.lastReconcile = r.At
	}
	if e.unlogged {
		a.Trigger, a.Preempted = e.inferred(r.At, a.Trigger, a.Preempted)
	}
	e.endedUnlogged = false
	if !e.startedAt.IsZero() && !r.At.IsZero() && (r.ReconcileID == "" || r.ReconcileID == string(e.startID)) {
		e.lastDuration = r.At.Sub(e.startedAt)
		a.Duration = metav1.Duration{Duration: e.lastDuration}
		a.Trigger, a.Preempted = e.startTrigger, e.startPreempted
	} else if r.Took > 0 {
		// No start line, but the sync's end states how long it took
		// (took.go).
		e.lastDuration = r.Took
		a.Duration = metav1.Duration{Duration: r.Took}
	}
	if a.Trigger == api.TriggerForget {
		a.By, a.Reason = e.releasedBy, e.releasedWhy
	}
	e.startedAt, e.startID, e.queuedAt = time.Time{}, e.startID[:0], time.Time{}
	e.released, e.releasedBy, e.releasedWhy = false, "", ""
}

// start applies "Reconciling" (V(5)).
func (e *entry) start(r *Record) {
	e.startTrigger, e.startPreempted = e.trigger(r.At)
	e.state, e.startedAt, e.startID, e.queuedAt = api.StateRunning, r.At, append(e.startID[:0], r.ReconcileID...), time.Time{}
}

// recordError keeps the error as the key's last. The attempt shares the
// last error's string when it is the same, so a long streak of one error
// holds one copy of it; its words are classified once per distinct message
// (classes). The last error's record is overwritten in place: view copies
// it, so no answer given shares it.
func (e *entry) recordError(r *Record, a *api.Attempt, classes *classCache) {
	msg := truncateError(r.Error)
	if e.lastErr != nil && e.lastErr.Message == msg {
		msg = e.lastErr.Message
		e.sameErr++
	} else {
		e.sameErr = 1
	}
	a.Error, a.Class = msg, classes.of(msg, r.Terminal)
	if e.lastErr == nil {
		e.lastErr = new(api.ErrorRecord)
	}
	*e.lastErr = api.ErrorRecord{Message: msg, At: r.At, Class: a.Class}
}

func (e *entry) addAttempt(a api.Attempt) { e.history.add(a) }

// derived is the key's state at now: a key waiting for a retry that has not
// been logged by quietGrace after it was due is unknown — its success, if
// it was one, is not logged at the default verbosity. It is never idle. A
// key whose retry time is unknown (its line had no readable time) cannot
// be late: it keeps the state its line gave it.
func (e *entry) derived(now time.Time) api.State {
	if (e.state == api.StateBackoff || e.state == api.StateScheduled) && !e.nextRetry.IsZero() && now.After(e.nextRetry.Add(quietGrace)) {
		return api.StateUnknown
	}
	return e.state
}

// view is the key on the wire, at now.
func (e *entry) view(now time.Time, withHistory bool) api.Key {
	k := api.Key{
		Controller:      e.controller,
		Key:             e.key,
		State:           e.derived(now),
		Failures:        e.failures,
		TotalFailures:   e.totalFailures,
		Reconciles:      e.reconciles,
		NextRetryAt:     e.nextRetry,
		Delay:           metav1.Duration{Duration: e.delay},
		DelaySource:     e.delaySource,
		SameErrorCount:  e.sameErr,
		FirstFailureAt:  e.firstFailure,
		LastSuccessAt:   e.lastSuccess,
		LastReconcileAt: e.lastReconcile,
		LastDuration:    metav1.Duration{Duration: e.lastDuration},
		QueuedAt:        e.queuedAt,
		StartedAt:       e.startedAt,
		Source:          api.SourceLogs,
		LogLine:         e.logLine, LogEvidence: e.logEvidence, ControllerWords: e.controllerWords,
		// A retry the log stated (Flux's "next try in", the priority
		// queue's readyAt) is exact.
		Estimated:    !(e.stated && (e.state == api.StateBackoff || e.state == api.StateScheduled)),
		EarlierRetry: e.state == api.StateBackoff && !e.earlier.IsZero() && e.nextRetry.Equal(e.earlier),
	}
	if k.DelaySource == api.SourceStated || k.DelaySource == api.SourceWaited {
		k.DelayWords = e.delayWords
	}
	if e.lastErr != nil {
		le := *e.lastErr
		k.LastError = &le
	}
	if e.lastReset != nil {
		lr := *e.lastReset
		k.LastReset = &lr
	}
	if withHistory {
		k.History = e.history.slice()
	}
	return k
}
