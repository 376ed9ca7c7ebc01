package instrument

import (
	"context"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api/query"
)

// sources are the controllers of one request; rows name them by index.
type sources []controllerSource

func (s sources) name(i int) string { return s[i].Name() }

// names are the controllers' names, by index.
func (s sources) names() []string {
	out := make([]string, len(s))
	for i, c := range s {
		out[i] = c.Name()
	}
	return out
}

// selection is the outcome of one pass over the sources for v1/keys.
type selection struct {
	total, matched int
	rows           []query.Row // the page, in order
	cont           string      // the continue token of the next page
}

// selectPage finds q's page over src with the engine's Pager: one pass over
// snapshots, matching and ranking outside every lock, keeping at most
// api.MaxWindow rows.
func selectPage(ctx context.Context, src sources, q *query.Keys, now int64) (*selection, error) {
	p := query.NewPager(q, src.names())
	var buf []keySnap
	total := 0
	for i, c := range src {
		var n int
		var err error
		buf, n, err = c.scan(ctx, now, buf, func(snaps []keySnap) error {
			for j := range snaps {
				k := &snaps[j]
				if j%256 == 255 {
					if err := ctx.Err(); err != nil {
						return err
					}
				}
				in := k.rankInput()
				p.Offer(i, k.key, k.lastErr, k.state, &in, 0)
			}
			return q.Matcher.Err()
		})
		total += n
		if err != nil {
			return nil, err
		}
	}
	rows, err := p.Page()
	if err != nil {
		return nil, err
	}
	return &selection{total: total, matched: p.Matched, rows: rows, cont: p.Continue(rows)}, nil
}
