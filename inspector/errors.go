package inspector

import (
	"context"
	"slices"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/query"
)

// Errors reads the error groups of every endpoint and merges them: replicas
// that shard one controller add up into one group per fingerprint, largest
// first, so the counts still add up to the keys matched.
func (s *Session) Errors(ctx context.Context, controller string, f api.Filter) (*api.ErrorGroupList, error) {
	out := &api.ErrorGroupList{Groups: []api.ErrorGroup{}}
	type id struct{ controller, fingerprint string }
	at := map[id]int{}
	h, err := fanOut(s, controller, func(e *Endpoint) (*api.ErrorGroupList, error) { return e.Client.Errors(ctx, controller, f) },
		func(l *api.ErrorGroupList) (time.Time, int, int) { return l.ServerTime, l.Total, l.Matched },
		func(_ int, l *api.ErrorGroupList) {
			for _, g := range l.Groups {
				j, ok := at[id{g.Controller, g.Fingerprint}]
				if !ok {
					at[id{g.Controller, g.Fingerprint}] = len(out.Groups)
					out.Groups = append(out.Groups, g)
					continue
				}
				m := &out.Groups[j]
				m.Count += g.Count
				if g.FirstSeen.Before(m.FirstSeen) {
					m.FirstSeen = g.FirstSeen
				}
				if g.LastSeen.After(m.LastSeen) {
					m.LastSeen = g.LastSeen
				}
				m.Class = query.MergeClass(m.Class, g.Class)
				// The smallest keys of both, as one server would have named them.
				all := slices.Compact(slices.Sorted(slices.Values(append(slices.Clone(m.Examples), g.Examples...))))
				m.Examples = all[:min(len(all), query.MaxExamples)]
			}
		})
	if h.answered == 0 && err != nil {
		return nil, err
	}
	out.ServerTime, out.Total, out.Matched = h.ServerTime, h.Total, h.Matched
	slices.SortStableFunc(out.Groups, query.CompareGroups)
	return out, err
}
