package logs

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/query"
)

// The store answers the endpoint's read API (v1/controllers, keys, key,
// errors) through the query engine's one read handler, so that everything
// written for an instrumented controller — the Session that merges
// replicas, top's UI, get, describe, snapshot, the error groups — works on
// a log unchanged, with the endpoint's parameters, limits, paging
// (continue) and errors. It is served in process, through a RoundTripper:
// no port is opened.

// Handler serves the store's v1 read API under api.DefaultPrefix. Forget is
// refused: nothing can reach the controller's queue from its log.
func (s *Store) Handler() http.Handler {
	return query.NewHandler(storeSource{s}, query.Options{
		States: query.LogStates,
		What:   "the log source",
		ForgetRefusal: "read from the controller's log: nothing can reach its queue to forget a key; " +
			"`kubectl backoff kick TARGET KEY` triggers a reconcile through the object instead",
		AllowedHosts: []string{query.InProcessHost},
	})
}

// storeSource is the store as the handler's query.Source.
type storeSource struct{ s *Store }

func (x storeSource) Names() []string { return x.s.names() }

func (x storeSource) Now() time.Time { return x.s.now() }

func (x storeSource) Controllers(context.Context) (*api.ControllerList, error) {
	return x.s.Controllers(), nil
}

func (x storeSource) View(_ context.Context, names []string) (time.Time, query.View, error) {
	controller := ""
	if len(names) == 1 {
		controller = names[0]
	}
	now, keys := x.s.views(controller)
	return now, query.KeysView(names, keys), nil
}

func (x storeSource) Key(controller, key string) (*api.KeyDetail, error) {
	d, err := x.s.Key(controller, key)
	if nf, ok := errors.AsType[*NotFoundError](err); ok {
		return nil, query.NotFound("%s", nf.Error())
	}
	return d, err
}
