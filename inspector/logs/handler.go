package logs

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

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
		serveJSON(w, http.StatusOK, s.Controllers())
	})
	mux.HandleFunc("GET "+p+"keys", func(w http.ResponseWriter, r *http.Request) {
		q, err := keyQuery(r)
		if err != nil {
			serveError(w, http.StatusBadRequest, err.Error())
			return
		}
		list, err := s.Keys(q)
		if err != nil {
			serveError(w, http.StatusBadRequest, err.Error())
			return
		}
		serveJSON(w, http.StatusOK, list)
	})
	mux.HandleFunc("GET "+p+"key", func(w http.ResponseWriter, r *http.Request) {
		key := r.URL.Query().Get("key")
		if key == "" {
			serveError(w, http.StatusBadRequest, `parameter "key" is required`)
			return
		}
		d, err := s.Key(r.URL.Query().Get("controller"), key)
		if nf := (*NotFoundError)(nil); errors.As(err, &nf) {
			serveError(w, http.StatusNotFound, err.Error())
			return
		} else if err != nil {
			serveError(w, http.StatusBadRequest, err.Error())
			return
		}
		serveJSON(w, http.StatusOK, d)
	})
	mux.HandleFunc("GET "+p+"errors", func(w http.ResponseWriter, r *http.Request) {
		l, err := s.Errors(r.URL.Query().Get("controller"), inspector.StatesParam(r.URL.Query()))
		if err != nil {
			serveError(w, http.StatusBadRequest, err.Error())
			return
		}
		serveJSON(w, http.StatusOK, l)
	})
	mux.HandleFunc("POST "+p+"forget", func(w http.ResponseWriter, _ *http.Request) {
		serveError(w, http.StatusForbidden, "read from the controller's log: nothing can reach its queue to forget a key; "+
			"`kubectl backoff kick TARGET KEY` triggers a reconcile through the object instead")
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		serveError(w, http.StatusNotFound, fmt.Sprintf("%s %s: not part of the log source's API", r.Method, r.URL.Path))
	})
	return mux
}

// keyQuery reads v1/keys' parameters.
func keyQuery(r *http.Request) (inspector.KeyQuery, error) {
	v := r.URL.Query()
	q := inspector.KeyQuery{Controller: v.Get("controller"), Q: v.Get("q"), Sort: v.Get("sort"), States: inspector.StatesParam(r.URL.Query())}
	var err error
	if q.Limit, err = intParam(v.Get("limit"), "limit", api.DefaultLimit, 1, api.MaxLimit); err != nil {
		return q, err
	}
	q.Offset, err = intParam(v.Get("offset"), "offset", 0, 0, 1<<30)
	return q, err
}

func intParam(s, name string, def, lo, hi int) (int, error) {
	if s == "" {
		return def, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, fmt.Errorf("parameter %q: %q is not an integer", name, s)
	}
	if n < lo || n > hi {
		return 0, fmt.Errorf("parameter %q: %d is out of range [%d, %d]", name, n, lo, hi)
	}
	return n, nil
}

func serveJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}

func serveError(w http.ResponseWriter, code int, msg string) {
	reason := strings.ReplaceAll(http.StatusText(code), " ", "")
	serveJSON(w, code, api.ErrorResponse{Error: api.ErrorBody{Code: code, Reason: reason, Message: msg}})
}

// handlerTransport answers requests with a handler in process.
type handlerTransport struct{ h http.Handler }

// RoundTrip implements http.RoundTripper.
func (t handlerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if err := req.Context().Err(); err != nil {
		return nil, err
	}
	rec := &recorder{header: http.Header{}, code: http.StatusOK}
	t.h.ServeHTTP(rec, req)
	if req.Body != nil {
		_ = req.Body.Close()
	}
	return &http.Response{
		StatusCode: rec.code, Status: fmt.Sprintf("%d %s", rec.code, http.StatusText(rec.code)),
		Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: rec.header, Body: io.NopCloser(&rec.body), ContentLength: int64(rec.body.Len()), Request: req,
	}, nil
}

// recorder is the http.ResponseWriter behind handlerTransport.
type recorder struct {
	header http.Header
	code   int
	wrote  bool
	body   bytes.Buffer
}

func (r *recorder) Header() http.Header { return r.header }

func (r *recorder) WriteHeader(code int) {
	if !r.wrote {
		r.code, r.wrote = code, true
	}
}

func (r *recorder) Write(p []byte) (int, error) {
	r.wrote = true
	return r.body.Write(p)
}

// Session returns an inspector.Session over the store, named name (what the
// UI and errors show as the endpoint, e.g. "logs: deploy/x"); stop (may be
// nil) is called by its Close.
func (s *Store) Session(name string, stop func()) *inspector.Session {
	c, err := inspector.NewClient("http://logs"+api.DefaultPrefix, handlerTransport{s.Handler()})
	if err != nil {
		panic(err) // a constant URL: cannot fail
	}
	return inspector.NewSession([]*inspector.Endpoint{{Name: name, Client: c}}, stop)
}
