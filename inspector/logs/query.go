package logs

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// Controllers is v1/controllers: every controller seen in the log, its
// counts by state (unknown included) and the retries of the next minute.
func (s *Store) Controllers() *api.ControllerList {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.nowLocked()
	byName := map[string]*api.Controller{}
	out := &api.ControllerList{ServerTime: now, Controllers: []api.Controller{}, LogRead: s.LogRead()}
	names := make([]string, 0, len(s.controllers))
	for name := range s.controllers {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		info := s.controllers[name]
		c := api.Controller{
			Name: name, Active: true, Limiter: s.opts.Limiter.wire(), Source: api.SourceLogs,
			Counts: map[api.State]int{}, Forecast: make([]int, api.ForecastSeconds),
			Capabilities: api.Capabilities{ReadOnly: true},
			LogSampledAt: s.sampledAtLocked(),
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
		if (st == api.StateBackoff || st == api.StateScheduled) && e.nextRetry.After(now) {
			c.Pending++
			if i := int(e.nextRetry.Sub(now) / time.Second); i < api.ForecastSeconds {
				c.Forecast[i]++
			}
		}
	}
	return out
}

// Keys is v1/keys: the keys passing q, sorted and paged as the endpoint does.
func (s *Store) Keys(q inspector.KeyQuery) (*api.KeyList, error) {
	m, err := inspector.NewKeyFilter(api.Filter{Q: q.Q, Error: q.Error, States: q.States})
	if err != nil {
		return nil, err
	}
	order, err := api.ParseSort(q.Sort)
	if err != nil {
		return nil, fmt.Errorf("parameter %q: %w", "sort", err)
	}
	limit := q.Limit
	if limit <= 0 {
		limit = api.DefaultLimit
	}
	limit = min(limit, api.MaxLimit)
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.nowLocked()
	out := &api.KeyList{ServerTime: now, Items: []api.Key{}}
	var items []api.Key
	for _, e := range s.keys {
		if q.Controller != "" && e.controller != q.Controller {
			continue
		}
		out.Total++
		st := e.derived(now)
		if !m.Match(e.key, e.lastErrText(), st) {
			continue
		}
		items = append(items, e.view(now, false))
	}
	out.Matched = len(items)
	slices.SortFunc(items, func(a, b api.Key) int { return api.CompareKeys(&a, &b, order) })
	items = items[min(max(q.Offset, 0), len(items)):]
	out.Items = append(out.Items, items[:min(limit, len(items))]...)
	return out, nil
}

func (e *entry) lastErrText() string {
	if e.lastErr == nil {
		return ""
	}
	return e.lastErr.Message
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
	now := s.nowLocked()
	var found []*entry
	for id, e := range s.keys {
		if id.key == key && (controller == "" || id.controller == controller) {
			found = append(found, e)
		}
	}
	switch len(found) {
	case 0:
		return nil, &NotFoundError{Controller: controller, Key: key}
	case 1:
		return &api.KeyDetail{ServerTime: now, Key: found[0].view(now, true)}, nil
	}
	names := make([]string, len(found))
	for i, e := range found {
		names[i] = e.controller
	}
	slices.Sort(names)
	return nil, fmt.Errorf("key %q is known to controllers %s: name one with --controller", key, strings.Join(names, ", "))
}

// Errors is v1/errors: the matched keys' last errors grouped. A log has
// the message only, so keys group by the exact message.
func (s *Store) Errors(controller string, f api.Filter) (*api.ErrorGroupList, error) {
	m, err := inspector.NewKeyFilter(f)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.nowLocked()
	out := &api.ErrorGroupList{ServerTime: now}
	var groups inspector.ErrorGroupBuilder
	for _, e := range s.keys {
		if controller != "" && e.controller != controller {
			continue
		}
		out.Total++
		if e.lastErr == nil || !m.Match(e.key, e.lastErr.Message, e.derived(now)) {
			continue
		}
		out.Matched++
		// The key with its last error only: a group's first and last
		// sightings are its errors' times, not the streaks' starts.
		groups.Add(&api.Key{Controller: e.controller, Key: e.key, LastError: e.lastErr}, e.lastErr.Message)
	}
	out.Groups = groups.Groups()
	return out, nil
}
