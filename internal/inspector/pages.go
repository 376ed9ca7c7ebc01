package inspector

import (
	"context"
	"net/http"

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
