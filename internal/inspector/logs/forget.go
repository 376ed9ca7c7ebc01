package logs

import (
	"strconv"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// forgotLocked applies a ForgetLine: each key it names is reset as the
// instrument's forget resets it (instrument's userForgot), so that the
// counts after a `kubectl backoff forget` restart where the endpoint's do.
// A key the log has not seen yet is tracked from here.
func (s *Store) forgotLocked(r Record) {
	for i, k := range r.Forgot {
		var release time.Duration
		if r.Requeue && r.Count > 1 {
			// The forget's spread, as the instrument releases the i-th key.
			release = r.Spread * time.Duration(i) / time.Duration(r.Count)
		}
		e, _ := s.entryLocked(r.Controller, k.Key, r.At)
		retried, ok := e.retriedBeforeLogged(r, k.Failures, release)
		e.forgot(r, k.Failures, release)
		if ok {
			s.refailLocked(r.Controller, e, retried)
		}
	}
}

// forgetLogLag bounds how long before its forget line the failure of the
// retry the forget released can be logged: the handler logs the line once
// the forget returns, and a requeued key's retry may run, fail and be
// logged in between.
const forgetLogLag = time.Second

// retriedBeforeLogged takes back, and returns, a failure logged just before
// the forget line (within forgetLogLag of it) that the instrument counted after the forget: the line
// says the key had failures when it was reset, and the log already shows
// one more, a moment before, on a key the forget released at once.
func (e *entry) retriedBeforeLogged(r Record, failures int, release time.Duration) (api.Attempt, bool) {
	n := e.history.len()
	if !r.Requeue || release > 0 || failures <= 0 || e.failures != failures+1 || n == 0 || r.At.IsZero() {
		return api.Attempt{}, false
	}
	last := *e.history.last()
	// Either side of the line's time: a logger stamps a line when it
	// begins it, and the failure's may be written first and stamped later.
	if gap := r.At.Sub(last.At).Abs(); last.Outcome != api.OutcomeError || last.At.IsZero() || gap > forgetLogLag {
		return api.Attempt{}, false
	}
	e.history.dropLast()
	e.failures--
	return last, true
}

// refailLocked applies again, after the forget, the failure
// retriedBeforeLogged took back: the first of a new count, run for the
// forget, retried after the limiter's first delay.
func (s *Store) refailLocked(controller string, e *entry, a api.Attempt) {
	c := s.controllers[controller]
	x := e.est
	x.exp = c.perItem(s.opts.Limiter).Delay(1)
	e.failures++
	e.state = api.StateBackoff
	e.backedOff(&Record{At: a.At}, x, c.limiter.bucket(), time.Time{})
	a.Delay = metav1.Duration{Duration: e.delay}
	a.Trigger, a.By, a.Reason = api.TriggerForget, e.releasedBy, e.releasedWhy
	e.released = false
	e.addAttempt(a)
}

// forgot resets the key's failure count (not its streak: it is failing
// since its first failure until a reconcile succeeds, as on the endpoint)
// and, when the forget requeued it, releases its retry: now, or after its
// share of the spread (a sooner retry still pending is kept: both queues
// keep the sooner ready time). Without requeue a pending retry keeps its
// time. failures is what the instrument had counted.
func (e *entry) forgot(r Record, failures int, release time.Duration) {
	at := r.At
	e.lastReset = &api.Reset{At: at, By: api.ResetForget, Failures: failures, User: r.User, Reason: r.Reason}
	e.failures, e.countReset = 0, e.failures > 0 || !e.firstFailure.IsZero()
	e.est, e.stated, e.failAt, e.earlier = estimate{}, false, time.Time{}, time.Time{}
	e.addAttempt(api.Attempt{At: at, Outcome: api.OutcomeForgotten, Delay: metav1.Duration{Duration: release},
		Trigger: api.TriggerForget, By: r.User, Reason: r.Reason})
	if !r.Requeue {
		return
	}
	failing := e.state == api.StateBackoff || e.state == api.StateFailed || !e.firstFailure.IsZero()
	pending := e.state == api.StateBackoff || e.state == api.StateScheduled
	switch {
	case release > 0:
		next := at.Add(release)
		if pending && !e.nextRetry.IsZero() && e.nextRetry.After(at) && e.nextRetry.Before(next) {
			next = e.nextRetry
		}
		e.state, e.nextRetry, e.delay, e.delaySource = api.StateScheduled, next, release, api.SourceSpread
		if failing {
			e.state = api.StateBackoff
		}
		if at.IsZero() {
			e.nextRetry = time.Time{}
		}
	default:
		e.state, e.queuedAt, e.nextRetry, e.delay, e.delaySource = api.StateQueued, at, time.Time{}, 0, ""
		e.released, e.releasedBy, e.releasedWhy = true, r.User, r.Reason
	}
}

// forget reads a forget line's fields into r: the keys of its "reset"
// list ("ns/name(backoff, 15 failures)", as logForget formats them), and
// whether their retries were released. A line whose list cannot be read is
// not a record.
func (f *fields) forget(r *Record) bool {
	r.Requeue = f.requeue == "true"
	r.User, r.Reason = f.user, f.reason
	if d, err := time.ParseDuration(f.spread); err == nil && d > 0 {
		r.Spread = d
	}
	ok := eachElement(f.reset, func(el []byte) {
		if k, ok := forgotKey(jsonString(el)); ok {
			r.Forgot = append(r.Forgot, k)
		}
	})
	r.Count = len(r.Forgot)
	if n, err := strconv.Atoi(f.count); err == nil && n > r.Count {
		r.Count = n
	}
	return ok
}

// forgotKey reads one "key(state, N failures)" of a forget line. A cache
// key holds no parenthesis, so the last one opens the state.
func forgotKey(s string) (ForgotKey, bool) {
	i := strings.LastIndexByte(s, '(')
	if i <= 0 || !strings.HasSuffix(s, ")") {
		return ForgotKey{}, false
	}
	_, rest, _ := strings.Cut(s[i+1:len(s)-1], ", ")
	n, _, _ := strings.Cut(rest, " ")
	failures, err := strconv.Atoi(n)
	if err != nil {
		return ForgotKey{}, false
	}
	return ForgotKey{Key: s[:i], Failures: failures}, true
}
