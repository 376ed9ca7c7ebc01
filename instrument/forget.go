package instrument

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"k8s.io/client-go/util/workqueue"
	"sigs.k8s.io/controller-runtime/pkg/controller/priorityqueue"
)

const (
	// maxSpread bounds the window a bulk retry is spread over.
	maxSpread = time.Hour
	// maxForgetKeys bounds the keys one request may name.
	maxForgetKeys = 10_000
)

// notFoundError is an unknown controller or key; it becomes a 404.
type notFoundError struct{ msg string }

// Error implements error.
func (e *notFoundError) Error() string { return e.msg }

// target is one key selected for a forget.
type target[T comparable] struct {
	item     T
	key      string
	state    api.State
	failures int
}

// forget resets the backoff of the selected keys and, with Requeue, makes them
// ready again — spread over req.Spread when there are several.
func (p *TypedProbe[T]) forget(req *api.ForgetRequest, now time.Time) (api.ForgetResponse, error) {
	p.mu.Lock()
	limiter, q := p.limiter, p.queue
	p.mu.Unlock()
	if limiter == nil {
		return api.ForgetResponse{}, &statusError{http.StatusConflict, fmt.Sprintf("controller %q has no instrumented rate limiter to forget with", p.name)}
	}
	targets, err := p.selectTargets(req, now.UnixNano())
	if err != nil {
		return api.ForgetResponse{}, err
	}
	resp := api.ForgetResponse{
		ServerTime: now,
		Controller: p.name,
		Count:      len(targets),
		DryRun:     req.DryRun,
		Requeued:   req.Requeue && q != nil && !req.DryRun,
		Keys:       make([]api.ForgottenKey, 0, min(len(targets), api.MaxForgetReport)),
		Truncated:  len(targets) > api.MaxForgetReport,
	}
	for i, t := range targets {
		var release time.Duration
		if req.Requeue && len(targets) > 1 {
			release = req.Spread.Duration * time.Duration(i) / time.Duration(len(targets))
		}
		if i < api.MaxForgetReport {
			fk := api.ForgottenKey{Key: t.key, State: t.state, Failures: t.failures}
			fk.ReleaseIn.Duration = release
			resp.Keys = append(resp.Keys, fk)
		}
		if req.DryRun {
			continue
		}
		limiter.inner.Forget(t.item)
		// Record before requeueing: once added, a worker may take the key and
		// record its next attempt, which the forget must not overwrite.
		p.store.userForgot(t.item, resp.Requeued, release, "", "")
		if resp.Requeued {
			requeue(q, t.item, release)
		}
	}
	resp.PendingRetryKept = !resp.Requeued && resp.Count > 0
	resp.Message = forgetMessage(&resp, req)
	return resp, nil
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

func forgetMessage(r *api.ForgetResponse, req *api.ForgetRequest) string {
	verb, requeue := "forgot", r.Requeued
	if r.DryRun {
		verb, requeue = "would forget", req.Requeue
	}
	msg := fmt.Sprintf("%s the backoff of %d key(s) of %s", verb, r.Count, r.Controller)
	switch {
	case requeue && req.Spread.Duration > 0 && r.Count > 1:
		msg += fmt.Sprintf("; retrying them spread over %v", req.Spread.Duration)
	case requeue:
		msg += "; retrying now"
	case req.Requeue:
		msg += "; the queue is not instrumented, so a pending retry keeps its time (counters are reset)"
	case r.Count > 0:
		msg += "; a pending retry keeps its time, the next failure starts from the base delay"
	}
	return msg
}

// selectTargets resolves the request's keys (all must exist) or filter.
func (p *TypedProbe[T]) selectTargets(req *api.ForgetRequest, now int64) ([]target[T], error) {
	var out []target[T]
	if req.Filter == nil {
		var missing []string
		for _, k := range req.Keys {
			if !p.store.withKey(k, func(e *entry[T]) {
				out = append(out, target[T]{item: e.item, key: e.key, state: e.state(now), failures: int(e.failures)})
			}) {
				missing = append(missing, k)
			}
		}
		if len(missing) > 0 {
			return nil, &notFoundError{fmt.Sprintf("controller %q has no key %s", p.name, quoteList(missing))}
		}
		return out, nil
	}
	m, err := newMatcher(*req.Filter)
	if err != nil {
		return nil, err
	}
	p.store.each(func(e *entry[T]) {
		if st := e.state(now); m.match(e.key, e.lastErr, st) {
			out = append(out, target[T]{item: e.item, key: e.key, state: st, failures: int(e.failures)})
		}
	})
	// A stable order, so a spread releases keys in the order the user saw them.
	slices.SortFunc(out, func(a, b target[T]) int { return strings.Compare(a.key, b.key) })
	return out, nil
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
