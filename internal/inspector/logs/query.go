package logs

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/query"
)

// Controllers is v1/controllers: every controller seen in the log, its
// counts by state (unknown included) and the retries of the next minute.
func (s *Store) Controllers() *api.ControllerList {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.flushForViewLocked()
	now := s.nowLocked()
	byName := map[string]*api.Controller{}
	src := &api.ListSource{Kind: api.SourceLogs, Read: s.LogRead(), SampledAt: s.sampledAtLocked(), Verbose: s.verbose, EndsAt: s.endsAtLocked()}
	out := &api.ControllerList{ServerTime: now, Controllers: []api.Controller{}, Source: src}
	names := make([]string, 0, len(s.controllers))
	for name := range s.controllers {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		info := s.controllers[name]
		c := api.Controller{
			Name: name, Active: true, Limiter: info.wire(s.opts.Limiter, now),
			Counts: map[api.State]int{}, Forecast: make([]int, api.ForecastSeconds),
			Capabilities: api.Capabilities{ReadOnly: true},
		}
		switch {
		case info.successesOwn:
			// A level for some of the program's controllers only
			// (kube-controller-manager's --v=4): said of each, not of
			// the log.
			c.SuccessesHow = info.successesHow
		case src.SuccessesHow == "":
			// One program wrote the log, through one logger: the first
			// dialect that advises a level advises it for the log.
			src.SuccessesHow = info.successesHow
		}
		if info.kind != "" {
			c.Kind = &api.GroupVersionKind{Group: info.group, Kind: info.kind}
		}
		out.Controllers = append(out.Controllers, c)
	}
	for i := range out.Controllers {
		byName[out.Controllers[i].Name] = &out.Controllers[i]
	}
	for _, e := range s.keys {
		c := byName[e.controller]
		st := e.derived(now)
		c.Keys++
		c.Counts[st]++
		if (st == api.StateBackoff || st == api.StateScheduled) && !e.nextRetry.IsZero() {
			// A retry past its time, not yet logged (within quietGrace),
			// is due now: its row says "due", so the forecast counts it
			// in its first second.
			c.Pending++
			if i := int(max(0, e.nextRetry.Sub(now)) / time.Second); i < api.ForecastSeconds {
				c.Forecast[i]++
			}
		}
	}
	return out
}

// names are the controllers seen in the log, sorted.
func (s *Store) names() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.flushForViewLocked()
	names := make([]string, 0, len(s.controllers))
	for name := range s.controllers {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// now is the store's time: the last line's for a file, the clock's live.
func (s *Store) now() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.flushForViewLocked()
	return s.nowLocked()
}

// views is every key of controller ("" for all) without history, as of
// one instant: what the read handler filters, sorts, pages and groups with
// the query engine, as the endpoint does.
func (s *Store) views(controller string) (time.Time, []api.Key) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.flushForViewLocked()
	now, sampled := s.nowLocked(), s.sampledAtLocked()
	out := make([]api.Key, 0, len(s.keys))
	for _, e := range s.keys {
		if controller == "" || e.controller == controller {
			out = append(out, undercounted(e.view(now, false), sampled))
		}
	}
	return now, out
}

// NotFoundError says a key is not in the log.
type NotFoundError struct{ Controller, Key string }

// Error implements error.
func (e *NotFoundError) Error() string {
	if e.Controller == "" {
		return fmt.Sprintf("key %q: not in the log (only keys with a logged reconcile error, or V(5) lines, are known)", e.Key)
	}
	return fmt.Sprintf("key %q of controller %q: not in the log (only keys with a logged reconcile error, or V(5) lines, are known)", e.Key, e.Controller)
}

// Key is v1/key: one key with its history. An empty controller finds the
// key in whichever controller has it, and fails if several do.
func (s *Store) Key(controller, key string) (*api.KeyDetail, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.flushForViewLocked()
	now := s.nowLocked()
	// A cluster-scoped object's request prints as "/name" (reconcile.Request's
	// String: Crossplane's "request" field), which a user copies from the
	// log; the store keys it "name", as the instrument does.
	name := strings.TrimPrefix(key, "/")
	var found []*entry
	for id, e := range s.keys {
		if id.key == name && (controller == "" || id.controller == controller) {
			found = append(found, e)
		}
	}
	switch len(found) {
	case 0:
		return nil, &NotFoundError{Controller: controller, Key: key}
	case 1:
		return &api.KeyDetail{ServerTime: now, Key: undercounted(found[0].view(now, true), s.sampledAtLocked())}, nil
	}
	names := make([]string, len(found))
	for i, e := range found {
		names[i] = e.controller
	}
	slices.Sort(names)
	return nil, query.AmbiguousKey(key, names)
}
