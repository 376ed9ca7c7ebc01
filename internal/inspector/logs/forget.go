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
		e.forgot(r, k.Failures, release)
	}
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
func (f *fields) forget(r Record) (Record, bool) {
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
	return r, ok
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
