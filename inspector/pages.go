package inspector

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// KeyPages calls v1/keys for every page of q, from q.Offset on, following
// the continue token the endpoint returns (which goes deeper than
// offset+limit may), and hands each page to fn. A sort that does not depend
// on state (api.SortKey) keeps a key from moving between pages.
func (c *Client) KeyPages(ctx context.Context, q KeyQuery, fn func(*api.KeyList) error) error {
	v := q.Values()
	for {
		var page api.KeyList
		if err := c.do(ctx, http.MethodGet, "v1/keys", v, nil, &page); err != nil {
			return err
		}
		if err := fn(&page); err != nil {
			return err
		}
		if page.Continue == "" || len(page.Items) == 0 {
			return nil
		}
		v.Del("offset")
		v.Set("continue", page.Continue)
	}
}

// AllKeys reads every key q matches, from every endpoint, chunk keys a
// request (kubectl's --chunk-size), following each endpoint's continue
// token, and merges them in q's sort order; q.Limit > 0 stops there. The
// pages are read in key order, which a key's state does not change, so no
// key is met twice or missed as states change between pages; the merged
// list is then sorted as q asks. It holds every key in memory: the
// endpoint's store bounds them (100,000 keys a controller by default).
func (s *Session) AllKeys(ctx context.Context, q KeyQuery, chunk int) (*KeyList, error) {
	if chunk <= 0 || chunk > api.MaxLimit {
		chunk = api.MaxLimit
	}
	per := q
	per.Sort, per.Offset, per.Limit = api.SortKey, 0, chunk
	out := &KeyList{Items: []PodKey{}}
	h, err := fanOut(s, q.Controller, func(e *Endpoint) (*api.KeyList, error) {
		var all *api.KeyList
		err := e.Client.KeyPages(ctx, per, func(p *api.KeyList) error {
			if all == nil {
				head := *p
				all = &head
				all.Items = nil
			}
			all.Items = append(all.Items, p.Items...)
			if q.Limit > 0 && len(all.Items) >= q.Limit && len(s.endpoints) == 1 {
				return errEnough
			}
			return nil
		})
		if errors.Is(err, errEnough) {
			err = nil
		}
		return all, err
	},
		func(l *api.KeyList) (time.Time, int, int) { return l.ServerTime, l.Total, l.Matched },
		func(i int, l *api.KeyList) {
			pod := s.podName(s.endpoints[i])
			for _, k := range l.Items {
				out.Items = append(out.Items, PodKey{Key: k, Pod: pod})
			}
		})
	if h.answered == 0 && err != nil {
		return nil, err
	}
	out.ServerTime, out.Total, out.Matched = h.ServerTime, h.Total, h.Matched
	slices.SortStableFunc(out.Items, func(a, b PodKey) int { return api.CompareKeys(&a.Key, &b.Key, q.Sort) })
	if q.Limit > 0 {
		out.Items = out.Items[:min(q.Limit, len(out.Items))]
	}
	if s.clusterWide {
		for _, f := range h.failed {
			out.Unreachable = append(out.Unreachable, f.Error())
		}
	}
	return out, err
}

// errEnough stops KeyPages once a limit is met.
var errEnough = errors.New("enough keys")
