package logs

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// The store answers the endpoint's read API (v1/controllers, keys, key,
// errors) so that everything written for an instrumented controller — the
// Session that merges replicas, top's UI, get, describe, the error groups —
// works on a log unchanged. It is served in process, through a
// RoundTripper: no port is opened.

// Handler serves the store's v1 read API under api.DefaultPrefix. Forget is
// refused: nothing can reach the controller's queue from its log.
func (s *Store) Handler() http.Handler {
	mux := http.NewServeMux()
	p := api.DefaultPrefix + api.APIVersion + "/"
	mux.HandleFunc("GET "+p+"controllers", func(w http.ResponseWriter, _ *http.Request) {
		inspector.ServeJSON(w, http.StatusOK, s.Controllers())
	})
	mux.HandleFunc("GET "+p+"keys", func(w http.ResponseWriter, r *http.Request) {
		q, err := keyQuery(r)
		if err != nil {
			inspector.ServeError(w, http.StatusBadRequest, err.Error())
			return
		}
		list, err := s.Keys(q)
		if err != nil {
			inspector.ServeError(w, http.StatusBadRequest, err.Error())
			return
		}
		inspector.ServeJSON(w, http.StatusOK, list)
	})
	mux.HandleFunc("GET "+p+"key", func(w http.ResponseWriter, r *http.Request) {
		key := r.URL.Query().Get("key")
		if key == "" {
			inspector.ServeError(w, http.StatusBadRequest, `parameter "key" is required`)
			return
		}
		d, err := s.Key(r.URL.Query().Get("controller"), key)
		if nf := (*NotFoundError)(nil); errors.As(err, &nf) {
			inspector.ServeError(w, http.StatusNotFound, err.Error())
			return
		} else if err != nil {
			inspector.ServeError(w, http.StatusBadRequest, err.Error())
			return
		}
		inspector.ServeJSON(w, http.StatusOK, d)
	})
	mux.HandleFunc("GET "+p+"errors", func(w http.ResponseWriter, r *http.Request) {
		l, err := s.Errors(r.URL.Query().Get("controller"), inspector.FilterParams(r.URL.Query()))
		if err != nil {
			inspector.ServeError(w, http.StatusBadRequest, err.Error())
			return
		}
		inspector.ServeJSON(w, http.StatusOK, l)
	})
	mux.HandleFunc("POST "+p+"forget", func(w http.ResponseWriter, _ *http.Request) {
		inspector.ServeError(w, http.StatusForbidden, "read from the controller's log: nothing can reach its queue to forget a key; "+
			"`kubectl backoff kick TARGET KEY` triggers a reconcile through the object instead")
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		inspector.ServeError(w, http.StatusNotFound, fmt.Sprintf("%s %s: not part of the log source's API", r.Method, r.URL.Path))
	})
	return mux
}

// keyQuery reads v1/keys' parameters.
func keyQuery(r *http.Request) (inspector.KeyQuery, error) {
	v := r.URL.Query()
	q := inspector.KeyQuery{Controller: v.Get("controller"), Q: v.Get("q"), Error: v.Get("error"), Sort: v.Get("sort"), States: inspector.StatesParam(r.URL.Query())}
	var err error
	if q.Limit, err = inspector.IntParam(v.Get("limit"), "limit", api.DefaultLimit, 1, api.MaxLimit); err != nil {
		return q, err
	}
	q.Offset, err = inspector.IntParam(v.Get("offset"), "offset", 0, 0, 1<<30)
	return q, err
}

// Session returns an inspector.Session over the store, named name (what the
// UI and errors show as the endpoint, e.g. "logs: deploy/x"); stop (may be
// nil) is called by its Close.
func (s *Store) Session(name string, stop func()) *inspector.Session {
	return inspector.NewSession([]*inspector.Endpoint{inspector.InProcessEndpoint(name, s.Handler())}, stop)
}
