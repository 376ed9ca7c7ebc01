package instrument

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/go-logr/logr"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	ctrllog "sigs.k8s.io/controller-runtime/pkg/log"
)

// DefaultPrefix is where the endpoint is mounted unless HandlerOptions say
// otherwise: the wire API's prefix, repeated here so that mounting the handler
// needs only this package.
const DefaultPrefix = api.DefaultPrefix

// maxBodyBytes bounds a request body.
const maxBodyBytes = 1 << 20

// HandlerOptions configures the endpoint. Every field is optional.
type HandlerOptions struct {
	// Registry is the set of controllers served. Defaults to DefaultRegistry if unset.
	Registry *Registry
	// Prefix is the path the handler is mounted under. Defaults to DefaultPrefix.
	Prefix string
	// ReadOnly refuses v1/forget with 403.
	ReadOnly bool
	// Logger receives one line per forget, naming what was reset. Defaults to
	// controller-runtime's logger, named "backoff", if unset.
	Logger *logr.Logger
}

// Handler serves DefaultRegistry under DefaultPrefix, forget allowed:
//
//	mgr.AddMetricsServerExtraHandler(instrument.DefaultPrefix, instrument.Handler())
func Handler() http.Handler { return NewHandler(HandlerOptions{}) }

// NewHandler returns the v1 endpoint for opts.
func NewHandler(opts HandlerOptions) http.Handler {
	if opts.Registry == nil {
		opts.Registry = DefaultRegistry
	}
	if opts.Prefix == "" {
		opts.Prefix = DefaultPrefix
	}
	if !strings.HasSuffix(opts.Prefix, "/") {
		opts.Prefix += "/"
	}
	if opts.Logger != nil {
		return &handler{opts: opts, log: *opts.Logger}
	}
	return &handler{opts: opts, log: ctrllog.Log.WithName("backoff")}
}

type handler struct {
	opts HandlerOptions
	log  logr.Logger
}

// ServeHTTP routes a request under the prefix to its endpoint, checking the method.
func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	path, ok := strings.CutPrefix(r.URL.Path, h.opts.Prefix)
	if !ok && r.URL.Path+"/" == h.opts.Prefix {
		path, ok = "", true
	}
	if !ok {
		serveError(w, r, http.StatusNotFound, fmt.Sprintf("no endpoint at %s; the API is under %s", r.URL.Path, h.opts.Prefix))
		return
	}
	type route struct {
		method string
		serve  func(http.ResponseWriter, *http.Request)
	}
	routes := map[string]route{
		"":               {http.MethodGet, h.index},
		"v1":             {http.MethodGet, h.index},
		"v1/controllers": {http.MethodGet, h.controllers},
		"v1/keys":        {http.MethodGet, h.keys},
		"v1/key":         {http.MethodGet, h.key},
		"v1/forget":      {http.MethodPost, h.forget},
	}
	rt, ok := routes[strings.TrimSuffix(path, "/")]
	if !ok {
		serveError(w, r, http.StatusNotFound, fmt.Sprintf("no endpoint %q; use v1/controllers, v1/keys, v1/key or v1/forget", path))
		return
	}
	if r.Method != rt.method && !(rt.method == http.MethodGet && r.Method == http.MethodHead) {
		w.Header().Set("Allow", rt.method)
		serveError(w, r, http.StatusMethodNotAllowed, fmt.Sprintf("%s %s: method not allowed; use %s", r.Method, path, rt.method))
		return
	}
	rt.serve(w, r)
}

// index lists the API, for a human with curl.
func (h *handler) index(w http.ResponseWriter, r *http.Request) {
	serveJSON(w, r, http.StatusOK, map[string]any{
		"versions":    []string{api.APIVersion},
		"controllers": h.opts.Registry.Names(),
		"endpoints": []string{
			"GET v1/controllers",
			"GET v1/keys?controller=&q=&state=&sort=next|failures|key|since&limit=&offset=",
			"GET v1/key?controller=&key=",
			"POST v1/forget {controller, keys | filter{q,state}, requeue, spread, dryRun}",
		},
		"readOnly": h.opts.ReadOnly,
	})
}

func (h *handler) controllers(w http.ResponseWriter, r *http.Request) {
	if len(r.URL.Query()) > 0 {
		for name := range r.URL.Query() {
			serveError(w, r, http.StatusBadRequest, badParam(name, "unknown parameter; v1/controllers takes none").Error())
			return
		}
	}
	list := api.ControllerList{ServerTime: h.now(nil), Controllers: []api.Controller{}}
	for _, c := range h.opts.Registry.list() {
		info := c.info(c.now())
		if h.opts.ReadOnly {
			info.Capabilities = api.Capabilities{ReadOnly: true}
		}
		list.Controllers = append(list.Controllers, info)
	}
	serveJSON(w, r, http.StatusOK, list)
}

func (h *handler) keys(w http.ResponseWriter, r *http.Request) {
	q, err := parseKeyQuery(r.URL.Query())
	if err != nil {
		serveErr(w, r, err)
		return
	}
	sources, err := h.selectControllers(q.controller)
	if err != nil {
		serveErr(w, r, err)
		return
	}
	now := h.now(sources)
	top := newTopK(q.offset + q.limit)
	list := api.KeyList{ServerTime: now}
	for _, c := range sources {
		list.Total += c.collect(q, now.UnixNano(), top)
	}
	list.Matched = top.matched
	list.Items = top.page(q.offset)
	serveJSON(w, r, http.StatusOK, list)
}

func (h *handler) key(w http.ResponseWriter, r *http.Request) {
	v := r.URL.Query()
	for name, vals := range v {
		if name != "controller" && name != "key" {
			serveError(w, r, http.StatusBadRequest, badParam(name, "unknown parameter; v1/key takes controller and key").Error())
			return
		}
		if len(vals) > 1 {
			serveError(w, r, http.StatusBadRequest, badParam(name, "given %d times; give it once", len(vals)).Error())
			return
		}
	}
	key := v.Get("key")
	if key == "" {
		serveError(w, r, http.StatusBadRequest, badParam("key", "required").Error())
		return
	}
	c, err := h.oneController(v.Get("controller"))
	if err != nil {
		serveErr(w, r, err)
		return
	}
	now := c.now()
	k, ok := c.lookup(key, now.UnixNano())
	if !ok {
		serveError(w, r, http.StatusNotFound, fmt.Sprintf("controller %q has no key %q", c.Name(), key))
		return
	}
	serveJSON(w, r, http.StatusOK, api.KeyDetail{ServerTime: now, Key: k})
}

func (h *handler) forget(w http.ResponseWriter, r *http.Request) {
	if h.opts.ReadOnly {
		serveError(w, r, http.StatusForbidden, "the endpoint is read-only: forget is disabled")
		return
	}
	req, err := decodeForget(w, r)
	if err != nil {
		serveErr(w, r, err)
		return
	}
	c, err := h.oneController(req.Controller)
	if err != nil {
		serveErr(w, r, err)
		return
	}
	resp, err := c.forget(req, c.now())
	if err != nil {
		serveErr(w, r, err)
		return
	}
	if !resp.DryRun {
		h.logForget(&resp, req)
	}
	serveJSON(w, r, http.StatusOK, resp)
}

func (h *handler) logForget(resp *api.ForgetResponse, req *api.ForgetRequest) {
	reset := make([]string, 0, min(len(resp.Keys), 100))
	for _, k := range resp.Keys[:min(len(resp.Keys), 100)] {
		reset = append(reset, fmt.Sprintf("%s(%s, %d failures)", k.Key, k.State, k.Failures))
	}
	h.log.Info("forgot backoff", "controller", resp.Controller, "count", resp.Count,
		"requeue", resp.Requeued, "spread", req.Spread.Duration.String(), "reset", reset)
}

// selectControllers resolves the controller parameter: one by name, or all.
func (h *handler) selectControllers(name string) ([]controllerSource, error) {
	if name == "" {
		return h.opts.Registry.list(), nil
	}
	c, ok := h.opts.Registry.get(name)
	if !ok {
		return nil, h.unknownController(name)
	}
	return []controllerSource{c}, nil
}

// oneController resolves a controller parameter that must name exactly one;
// it may be left out when the process has a single controller.
func (h *handler) oneController(name string) (controllerSource, error) {
	if name != "" {
		c, ok := h.opts.Registry.get(name)
		if !ok {
			return nil, h.unknownController(name)
		}
		return c, nil
	}
	all := h.opts.Registry.list()
	if len(all) == 1 {
		return all[0], nil
	}
	return nil, badParam("controller", "required: this process has %d controllers (%s)", len(all), strings.Join(h.opts.Registry.Names(), ", "))
}

func (h *handler) unknownController(name string) error {
	return &notFoundError{fmt.Sprintf("no controller %q; known: %s", name, strings.Join(h.opts.Registry.Names(), ", "))}
}

// now is the server's clock: the first selected controller's, so that tests
// with a fake clock see one time everywhere.
func (h *handler) now(sources []controllerSource) time.Time {
	if len(sources) == 0 {
		sources = h.opts.Registry.list()
	}
	if len(sources) > 0 {
		return sources[0].now()
	}
	return time.Now()
}

func decodeForget(w http.ResponseWriter, r *http.Request) (*api.ForgetRequest, error) {
	if ct := r.Header.Get("Content-Type"); ct != "" && !strings.HasPrefix(ct, "application/json") {
		return nil, &statusError{http.StatusUnsupportedMediaType, fmt.Sprintf("Content-Type %q: send application/json", ct)}
	}
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxBodyBytes))
	dec.DisallowUnknownFields()
	var req api.ForgetRequest
	if err := dec.Decode(&req); err != nil {
		if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
			return nil, &statusError{http.StatusRequestEntityTooLarge, fmt.Sprintf("request body is over %d bytes", maxBodyBytes)}
		}
		return nil, &statusError{http.StatusBadRequest, "request body: " + err.Error()}
	}
	if dec.More() {
		return nil, &statusError{http.StatusBadRequest, "request body: more than one JSON value"}
	}
	switch {
	case len(req.Keys) == 0 && req.Filter == nil:
		return nil, badParam("keys", "name the keys to forget, or give a filter")
	case len(req.Keys) > 0 && req.Filter != nil:
		return nil, badParam("filter", "give keys or a filter, not both")
	case len(req.Keys) > maxForgetKeys:
		return nil, badParam("keys", "%d keys; at most %d per request (use a filter)", len(req.Keys), maxForgetKeys)
	case req.Spread.Duration < 0 || req.Spread.Duration > maxSpread:
		return nil, badParam("spread", "%v is out of range [0, %v]", req.Spread.Duration, maxSpread)
	}
	for i, k := range req.Keys {
		if k == "" {
			return nil, badParam("keys", "key %d is empty", i)
		}
	}
	return &req, nil
}
