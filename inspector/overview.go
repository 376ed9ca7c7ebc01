package inspector

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// Overview is the state of every replica, and the controllers of the active
// ones merged by name.
type Overview struct {
	ServerTime  time.Time
	Replicas    []Replica
	Controllers []api.Controller
	// Source is the replicas' sources said once (mergeSource): nil when
	// none is a log.
	Source *api.ListSource
}

// AcceptsSort reports whether the servers accept order for v1/keys, as
// their controllers list it (api.Capabilities.Sorts); known is false when
// none lists its orders (servers older than that field).
func (o *Overview) AcceptsSort(order string) (accepts, known bool) {
	for _, c := range o.Controllers {
		if len(c.Capabilities.Sorts) > 0 {
			known = true
			if slices.Contains(c.Capabilities.Sorts, order) {
				return true, true
			}
		}
	}
	return false, known
}

// ReadOnly reports whether every active controller refuses forget.
func (o *Overview) ReadOnly() bool {
	for _, c := range o.Controllers {
		if c.Capabilities.Forgets() {
			return false
		}
	}
	return true
}

// Controller returns the merged controller named name.
func (o *Overview) Controller(name string) *api.Controller {
	for i := range o.Controllers {
		if o.Controllers[i].Name == name {
			return &o.Controllers[i]
		}
	}
	return nil
}

// Overview reads v1/controllers from every endpoint. It fails only when no
// endpoint answers; a replica's own failure is in its Err.
func (s *Session) Overview(ctx context.Context) (*Overview, error) {
	reps := make([]Replica, len(s.endpoints))
	s.each(func(i int, e *Endpoint) {
		r := Replica{Endpoint: e.Name, Workload: e.Workload, Conn: e.State()}
		list, watched := s.watchedControllers(ctx)
		var err error
		if !watched {
			list, err = e.Client.Controllers(ctx)
		}
		if err != nil {
			r.Err = err
		} else {
			r.ServerTime, r.Controllers, r.Source = list.ServerTime, list.Controllers, list.Source
			r.Standby = len(list.Controllers) > 0 && !slices.ContainsFunc(list.Controllers, func(c api.Controller) bool { return c.Active })
			if len(s.endpoints) == 1 {
				s.watch.seeCapabilities(list.Controllers)
			}
		}
		reps[i] = r
	})
	o := &Overview{Replicas: reps}
	var errs []error
	for _, r := range reps {
		if r.Err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", r.Endpoint, r.Err))
			continue
		}
		if r.ServerTime.After(o.ServerTime) {
			o.ServerTime = r.ServerTime
		}
		o.Source = mergeSource(o.Source, r.Source)
		if r.Standby && len(reps) > 1 {
			continue
		}
		for _, c := range r.Controllers {
			o.Controllers = mergeController(o.Controllers, c)
		}
	}
	if len(errs) == len(reps) {
		return o, errors.Join(errs...)
	}
	return o, nil
}

// mergeSource adds a replica's source to the merged one, so that what is
// said of the merged keys holds for every replica: the latest end of a
// saved log (a countdown is judged from it), the earliest sampling, and
// successes shown only when every log shows them. How much was read stays
// each replica's (Replica.Source.Read).
func mergeSource(m, s *api.ListSource) *api.ListSource {
	switch {
	case s == nil:
		return m
	case m == nil:
		c := *s
		return &c
	}
	if s.EndsAt.After(m.EndsAt) {
		m.EndsAt = s.EndsAt
	}
	if !s.SampledAt.IsZero() && (m.SampledAt.IsZero() || s.SampledAt.Before(m.SampledAt)) {
		m.SampledAt = s.SampledAt
	}
	m.Verbose = m.Verbose && s.Verbose
	if m.SnapshotAt.IsZero() {
		m.SnapshotAt = s.SnapshotAt // one file's: its replicas were taken together
	}
	if m.SuccessesHow == "" {
		m.SuccessesHow = s.SuccessesHow
	}
	return m
}

func mergeController(list []api.Controller, c api.Controller) []api.Controller {
	i := slices.IndexFunc(list, func(x api.Controller) bool { return x.Name == c.Name })
	if i < 0 {
		// Own the counts: merging into the replica's map would change what
		// its Replica reports.
		c.Counts = maps.Clone(c.Counts)
		if c.Counts == nil {
			c.Counts = map[api.State]int{}
		}
		c.Forecast = slices.Clone(c.Forecast)
		return append(list, c)
	}
	m := &list[i]
	m.Active = m.Active || c.Active
	m.Keys += c.Keys
	for st, n := range c.Counts {
		m.Counts[st] += n
	}
	m.Pending += c.Pending
	for i, n := range c.Forecast {
		if i < len(m.Forecast) {
			m.Forecast[i] += n
		}
	}
	if c.QueueDepth != nil {
		m.QueueDepth = new(derefInt(m.QueueDepth) + *c.QueueDepth)
	}
	return list
}

func derefInt(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}
