package inspector

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// maxExamples bounds the example keys a merged error group keeps.
const maxExamples = 5

// Errors reads the error groups of every endpoint and merges them: replicas
// that shard one controller add up into one group per fingerprint, largest
// first, so the counts still add up to the keys matched.
func (s *Session) Errors(ctx context.Context, controller string, states []api.State) (*api.ErrorGroupList, error) {
	lists := make([]*api.ErrorGroupList, len(s.endpoints))
	errs := make([]error, len(s.endpoints))
	s.each(func(i int, e *Endpoint) { lists[i], errs[i] = e.Client.Errors(ctx, controller, states) })
	out := &api.ErrorGroupList{Groups: []api.ErrorGroup{}}
	type id struct{ controller, fingerprint string }
	at := map[id]int{}
	var failed, lacked []error
	answered := 0
	for i, l := range lists {
		if s.lacks(errs[i], controller) {
			lacked = append(lacked, fmt.Errorf("%s: %w", s.endpoints[i].Name, errs[i]))
			continue
		}
		if errs[i] != nil {
			failed = append(failed, fmt.Errorf("%s: %w", s.endpoints[i].Name, errs[i]))
			continue
		}
		answered++
		out.Total += l.Total
		out.Matched += l.Matched
		if l.ServerTime.After(out.ServerTime) {
			out.ServerTime = l.ServerTime
		}
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
			m.Examples = append(m.Examples, g.Examples[:max(0, min(len(g.Examples), maxExamples-len(m.Examples)))]...)
		}
	}
	if answered == 0 && len(s.endpoints) > 0 {
		return nil, errors.Join(append(lacked, failed...)...)
	}
	slices.SortStableFunc(out.Groups, func(a, b api.ErrorGroup) int {
		if c := cmp.Compare(b.Count, a.Count); c != 0 {
			return c
		}
		return cmp.Compare(a.Controller+"\x00"+a.Fingerprint, b.Controller+"\x00"+b.Fingerprint)
	})
	if s.clusterWide {
		return out, nil // the pods out of reach are the header's to name
	}
	return out, errors.Join(failed...)
}
