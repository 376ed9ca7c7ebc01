package inspector

import (
	"bytes"
	"fmt"
	"io"
	"net/http"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/query"
)

// Log mode and snapshots answer the endpoint's read API in process, so that
// the Session, top's UI, get and describe work on them unchanged: their
// handlers (the query engine's handler, query.NewHandler) are
// served through inProcessEndpoint, with no port opened.

// LogSourcePrefix begins the name of an endpoint that reads a log ("logs:
// FILE", "logs: deploy/NAME"): nothing is connected to it, and it has no
// leader to tell.
const LogSourcePrefix = "logs: "

// InProcessHost is the host an in-process endpoint's requests are sent to:
// its handler allows it (query.Options.AllowedHosts), as a metrics server's
// allows its Service name.
const InProcessHost = query.InProcessHost

// inProcessEndpoint is an endpoint named name whose requests h answers in
// process.
func inProcessEndpoint(name string, h http.Handler) *Endpoint {
	c, err := NewClient("http://"+InProcessHost+api.DefaultPrefix, handlerTransport{h})
	if err != nil {
		panic(err) // a constant URL: cannot fail
	}
	return &Endpoint{Name: name, Client: c}
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

// NamedHandler is one endpoint served in process: a log's store
// (logs.Store.Handler, named "logs: FILE") or a snapshot's replica
// (one of snapshot.Handlers, named as its pod was).
type NamedHandler struct {
	Name    string
	Handler http.Handler
}

// InProcessSession returns a session over endpoints served in process, one
// per handler in order, so that a log or a snapshot is read through the
// same client as an instrumented endpoint; stop (may be nil) is called by
// its Close.
func InProcessSession(stop func(), named ...NamedHandler) *Session {
	eps := make([]*Endpoint, len(named))
	for i, n := range named {
		eps[i] = inProcessEndpoint(n.Name, n.Handler)
	}
	return NewSession(eps, stop)
}
