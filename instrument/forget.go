package instrument

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/query"
	"k8s.io/client-go/util/workqueue"
	"sigs.k8s.io/controller-runtime/pkg/controller/priorityqueue"
)

const (
	// maxSpread bounds the window a bulk retry is spread over.
	maxSpread = api.MaxSpread
	// maxForgetKeys bounds the keys one request may name.
	maxForgetKeys = 10_000
)

// target is one key selected for a forget.
type target[T comparable] struct {
	item     T
	key      string
	state    api.State
	failures int
	// nextRetry is the retry pending when the key was selected (backoff,
	// scheduled), Unix nanoseconds; 0 without one.
	nextRetry int64
	// permanent says the key's last reconcile failed on a permanent error
	// (ForgetResponse.Permanent).
	permanent bool
}

// forget resets the backoff of the selected keys and, with Requeue, makes them
// ready again — spread over req.Spread when there are several. req.User is
// recorded as it is: the handler has already settled who asked.
func (p *TypedProbe[T]) forget(req *api.ForgetRequest, now time.Time) (api.ForgetResponse, error) {
	p.mu.Lock()
	limiter, q := p.limiter, p.queue
	p.mu.Unlock()
	if limiter == nil {
		return api.ForgetResponse{}, errNotInstrumented("controller %q has no instrumented rate limiter to forget with", p.Name())
	}
	targets, err := p.selectTargets(req, now.UnixNano())
	if err != nil {
		return api.ForgetResponse{}, err
	}
	resp := api.ForgetResponse{
		ServerTime: now,
		Controller: p.Name(),
		Count:      len(targets),
		DryRun:     req.DryRun,
		Requeued:   req.Requeue && q != nil && !req.DryRun,
		Keys:       make([]api.ForgottenKey, 0, min(len(targets), api.MaxForgetReport)),
		Truncated:  len(targets) > api.MaxForgetReport,
	}
	for i, t := range targets {
		if t.permanent {
			resp.Permanent++
		}
		var release time.Duration
		if req.Requeue && len(targets) > 1 {
			release = req.Spread.Duration * time.Duration(i) / time.Duration(len(targets))
		}
		if i < api.MaxForgetReport {
			fk := api.ForgottenKey{Key: t.key, State: t.state, Failures: t.failures}
			fk.ReleaseIn.Duration = release
			if in := time.Duration(t.nextRetry - now.UnixNano()); req.Requeue && release > 0 && in > 0 && in < release {
				fk.EarlierRetryIn.Duration = in // the queue keeps the sooner ready time
			}
			resp.Keys = append(resp.Keys, fk)
		}
		if req.DryRun {
			continue
		}
		limiter.resetCount(t.item)
		// Record before requeueing: once added, a worker may take the key and
		// record its next attempt, which the forget must not overwrite.
		p.store.userForgot(t.item, resp.Requeued, release, req.User, req.Reason)
		if resp.Requeued {
			requeue(q, t.item, release)
		}
	}
	if !req.DryRun {
		p.forgets.add(resp.Requeued, resp.Count)
		p.announceForget(targets, req.User, req.Reason)
	}
	had := tally(targets)
	// A dry run reset nothing, so it kept nothing either.
	resp.PendingRetryKept = !req.DryRun && !resp.Requeued && had.pending > 0
	resp.Message = forgetMessage(&resp, req, had)
	return resp, nil
}

// held is what the selected keys had for a forget to act on.
type held struct{ counted, pending int }

// tally counts the targets with failures counted and with a retry (or a
// RequeueAfter's re-check) still to come, which a forget without requeue
// leaves in place.
func tally[T comparable](targets []target[T]) held {
	var h held
	for _, t := range targets {
		if t.failures > 0 {
			h.counted++
		}
		if t.state == api.StateBackoff || t.state == api.StateScheduled {
			h.pending++
		}
	}
	return h
}

// requeue makes item ready after release, bypassing the queue decorator: this
// is not a watch event.
func requeue[T comparable](q workqueue.TypedRateLimitingInterface[T], item T, release time.Duration) {
	switch pq, ok := q.(priorityqueue.PriorityQueue[T]); {
	case release == 0:
		q.Add(item)
	case ok:
		pq.AddWithOpts(priorityqueue.AddOpts{After: release}, item)
	default:
		q.AddAfter(item, release)
	}
}

func forgetMessage(r *api.ForgetResponse, req *api.ForgetRequest, had held) string {
	verb, requeue := "forgot", r.Requeued
	if r.DryRun {
		verb, requeue = "would forget", req.Requeue
	}
	keys := "keys"
	if r.Count == 1 {
		keys = "key"
	}
	msg := fmt.Sprintf("%s the backoff of %d %s of %s", verb, r.Count, keys, r.Controller)
	was, them := "was", "them"
	if r.DryRun {
		was = "is"
	}
	if r.Count == 1 {
		them = "it"
	}
	switch {
	case requeue && req.Spread.Duration > 0 && r.Count > 1:
		msg += fmt.Sprintf("; retrying them spread over %v", req.Spread.Duration)
	case requeue:
		msg += "; retrying now"
	case req.Requeue:
		msg += "; the queue is not instrumented, so a pending retry keeps its time (counters are reset)"
	case r.Count > 0 && had.counted == 0 && had.pending == 0:
		// A failed or idle key: "reset" would claim an effect.
		msg += fmt.Sprintf("; there %s nothing to reset (no failures counted, no retry pending): requeue to run %s now", was, them)
	case r.Count > 0 && had.counted == 0:
		msg += fmt.Sprintf("; there %s no failure count to reset; a pending retry keeps its time", was)
	case r.Count > 0 && had.pending == 0:
		msg += fmt.Sprintf("; the failure count starts again from 0; no retry %s pending: requeue to run %s now", was, them)
	case r.Count > 0:
		// Not "the base delay": a token bucket, if the limiter has one,
		// still applies.
		msg += "; a pending retry keeps its time, the failure count starts again from 0"
	}
	return msg
}

// selectTargets resolves the request's keys (all must exist; a key named
// twice counts once) or filter. A filter is matched on snapshots, outside
// the shard locks, as v1/keys does.
func (p *TypedProbe[T]) selectTargets(req *api.ForgetRequest, now int64) ([]target[T], error) {
	if req.Filter == nil {
		return p.targetsOf(dedupe(req.Keys), now, true)
	}
	m, err := query.NewMatcher(*req.Filter, api.States)
	if err != nil {
		return nil, err
	}
	var keys []string
	if _, err := p.store.scan(context.Background(), now, nil, func(snaps []query.Item) error {
		for i := range snaps {
			if k := &snaps[i]; m.Match(k.Key, k.LastError, k.State) {
				keys = append(keys, k.Key)
			}
		}
		return m.Err()
	}); err != nil {
		return nil, err
	}
	// A stable order, so a spread releases keys in the order the user saw them.
	slices.Sort(keys)
	return p.targetsOf(keys, now, false)
}

// targetsOf looks keys up; with mustExist, a missing key is an error,
// otherwise (evicted since the scan) it is skipped.
func (p *TypedProbe[T]) targetsOf(keys []string, now int64, mustExist bool) ([]target[T], error) {
	out := make([]target[T], 0, len(keys))
	var missing []string
	for _, k := range keys {
		if !p.store.withKey(k, func(e *entry[T]) {
			t := target[T]{item: e.item, key: e.key, state: e.state(now), failures: int(e.failures),
				// The last reconcile ended on the error: none has ended since.
				permanent: e.errClass == classPermanent && e.lastErr != (text{}) && e.lastReconcileAt <= e.lastErrAt}
			if t.state == api.StateBackoff || t.state == api.StateScheduled {
				t.nextRetry = e.nextRetry
			}
			out = append(out, t)
		}) {
			missing = append(missing, k)
		}
	}
	if mustExist && len(missing) > 0 {
		return nil, errNotFound("controller %q has no key %s", p.Name(), quoteList(missing))
	}
	return out, nil
}

// dedupe drops repeated keys, keeping the first of each in order.
func dedupe(keys []string) []string {
	seen := make(map[string]bool, len(keys))
	out := make([]string, 0, len(keys))
	for _, k := range keys {
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out
}

func quoteList(keys []string) string {
	const show = 5
	q := make([]string, 0, show)
	for _, k := range keys[:min(len(keys), show)] {
		q = append(q, fmt.Sprintf("%q", k))
	}
	s := strings.Join(q, ", ")
	if len(keys) > show {
		s += fmt.Sprintf(" and %d more", len(keys)-show)
	}
	return s
}
