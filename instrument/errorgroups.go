package instrument

import (
	"context"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api/query"
)

// errorGroups groups the last errors of the keys m selects with the
// engine's Grouper: one pass over snapshots, outside every lock; messages
// are interned, so keys failing alike share one string, fingerprinted once.
func errorGroups(ctx context.Context, src sources, m *query.Matcher, now int64) (*api.ErrorGroupList, error) {
	out := &api.ErrorGroupList{}
	g := query.NewGrouper(src.names())
	var buf []keySnap
	for i, c := range src {
		var total int
		var err error
		buf, total, err = c.scan(ctx, now, buf, func(snaps []keySnap) error {
			for j := range snaps {
				k := &snaps[j]
				if k.lastErr == "" || !m.Match(k.key, k.lastErr, k.state) {
					continue
				}
				out.Matched++
				g.Add(i, &query.ErrorKey{Key: k.key, Message: k.lastErr, Class: k.class, First: seen(k), Last: k.lastErrAt})
			}
			if err := m.Err(); err != nil {
				return err
			}
			return ctx.Err()
		})
		out.Total += total
		if err != nil {
			return nil, err
		}
	}
	out.Groups = g.Groups()
	return out, nil
}

// seen is when k's failure streak began, or its error's time without one.
func seen(k *keySnap) int64 {
	if k.firstFailureAt != 0 {
		return k.firstFailureAt
	}
	return k.lastErrAt
}
