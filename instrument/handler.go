package instrument

import (
	"encoding/base64"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/go-logr/logr"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api/query"
	ctrllog "sigs.k8s.io/controller-runtime/pkg/log"
)

// DefaultPrefix is where the endpoint is mounted unless HandlerOptions say
// otherwise: the wire API's prefix, repeated here so that mounting the handler
// needs only this package.
const DefaultPrefix = api.DefaultPrefix

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
	// AllowedHosts lists the host names (a port is ignored) requests may be
	// addressed to besides loopback addresses, localhost and the address the
	// request came in on: e.g. the Service name of the metrics server. "*"
	// allows any, giving up the DNS-rebinding guard. Defaults to none.
	AllowedHosts []string
	// MaxConcurrentLists bounds the v1/keys, v1/errors and v1/controllers
	// computations that run at once. Defaults to DefaultMaxConcurrentLists.
	MaxConcurrentLists int
	// AdmissionWait is how long a list request waits for a free computation
	// before it is answered 429 with Retry-After. Defaults to DefaultAdmissionWait.
	AdmissionWait time.Duration
	// Reuse is how long a computed list answers identical requests (each
	// answer says its age). Defaults to DefaultReuse if zero; negative turns
	// reuse off (identical concurrent requests still share one computation).
	Reuse time.Duration
	// MaxRequestsPerSecond bounds the reads (GET) served each second, so
	// that readers in a loop cannot take the controller's CPU: reads
	// together take at most a fifth of a core. More wait as long as a slot
	// can rest (a second), so that one reader paging through never sees a
	// 429, and are then answered 429. Forget is not paced. Defaults to
	// DefaultMaxRequestsPerSecond.
	MaxRequestsPerSecond int
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
	if opts.MaxConcurrentLists <= 0 {
		opts.MaxConcurrentLists = DefaultMaxConcurrentLists
	}
	if opts.AdmissionWait <= 0 {
		opts.AdmissionWait = DefaultAdmissionWait
	}
	if opts.Reuse == 0 {
		opts.Reuse = DefaultReuse
	}
	if opts.MaxRequestsPerSecond <= 0 {
		opts.MaxRequestsPerSecond = DefaultMaxRequestsPerSecond
	}
	h := &handler{opts: opts, adm: newAdmission(opts.MaxConcurrentLists, opts.AdmissionWait, opts.Reuse),
		pace: newPacer(opts.MaxRequestsPerSecond, maxPacerRest)}
	if opts.Logger != nil {
		h.log = *opts.Logger
	} else {
		h.log = ctrllog.Log.WithName("backoff")
	}
	h.routes = map[string]route{
		"":               {http.MethodGet, h.index},
		"v1":             {http.MethodGet, h.index},
		"v1/controllers": {http.MethodGet, h.controllers},
		"v1/keys":        {http.MethodGet, h.keys},
		"v1/errors":      {http.MethodGet, h.errors},
		"v1/key":         {http.MethodGet, h.key},
		"v1/forget":      {http.MethodPost, h.forget},
	}
	return h
}

type handler struct {
	opts   HandlerOptions
	log    logr.Logger
	adm    *admission
	pace   *pacer
	routes map[string]route
}

// route is an endpoint: its method and what serves it. A serve function
// returns its error for ServeHTTP to write, so every error takes one path.
type route struct {
	method string
	serve  func(http.ResponseWriter, *http.Request) error
}

// ServeHTTP routes a request under the prefix to its endpoint, after the
// guard and the method check.
func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if err := h.serve(w, r); err != nil {
		writeError(w, r, err)
	}
}

func (h *handler) serve(w http.ResponseWriter, r *http.Request) error {
	if err := h.checkRequest(r); err != nil {
		return err
	}
	path, ok := strings.CutPrefix(r.URL.Path, h.opts.Prefix)
	if !ok && r.URL.Path+"/" == h.opts.Prefix {
		path, ok = "", true
	}
	if !ok {
		return errNotFound("no endpoint at %s; the API is under %s", r.URL.Path, h.opts.Prefix)
	}
	rt, ok := h.routes[strings.TrimSuffix(path, "/")]
	if !ok {
		return errNotFound("no endpoint %q; use v1/controllers, v1/keys, v1/errors, v1/key or v1/forget", path)
	}
	if r.Method != rt.method && !(rt.method == http.MethodGet && r.Method == http.MethodHead) {
		w.Header().Set("Allow", rt.method)
		return newError(kindMethod, "%s %s: method not allowed; use %s", r.Method, path, rt.method)
	}
	if rt.method == http.MethodGet {
		done, err := h.pace.enter(r.Context())
		if err != nil {
			return err
		}
		defer done()
	}
	return rt.serve(w, r)
}

// index lists the API, for a human with curl.
func (h *handler) index(w http.ResponseWriter, r *http.Request) error {
	serveJSON(w, r, http.StatusOK, map[string]any{
		"versions":    []string{api.APIVersion},
		"controllers": h.opts.Registry.Names(),
		"endpoints": []string{
			"GET v1/controllers",
			"GET v1/keys?controller=&q=&state=&sort=" + strings.Join(api.Sorts, "|") + "&limit=&offset=&continue=",
			"GET v1/errors?controller=&state=",
			"GET v1/key?controller=&key= (or &handle=)",
			"POST v1/forget {controller, keys | handles | filter{q,state}, requeue, spread, dryRun} (Content-Type: application/json)",
		},
		"readOnly": h.opts.ReadOnly,
	})
	return nil
}

func (h *handler) key(w http.ResponseWriter, r *http.Request) error {
	v, err := query.ParseParams(r.URL.RawQuery, []string{"controller", "key", "handle"})
	if err != nil {
		return err
	}
	key, err := query.KeyParam(v.Get("key"), v.Get("handle"))
	if err != nil {
		return err
	}
	c, err := h.oneController(v.Get("controller"))
	if err != nil {
		return err
	}
	k, now, ok := c.lookup(key)
	if !ok {
		return errNotFound("controller %q has no key %q", c.Name(), key)
	}
	withHandle(&k)
	serveJSON(w, r, http.StatusOK, api.KeyDetail{ServerTime: now, Key: k})
	return nil
}

// withHandle gives a key that JSON cannot carry its lossless handle.
func withHandle(k *api.Key) {
	if !utf8.ValidString(k.Key) {
		k.Handle = base64.RawURLEncoding.EncodeToString([]byte(k.Key))
	}
}

// selectControllers resolves the controller parameter: one by name, or all.
func (h *handler) selectControllers(name string) (sources, error) {
	if name == "" {
		return h.opts.Registry.list(), nil
	}
	c, ok := h.opts.Registry.get(name)
	if !ok {
		return nil, h.unknownController(name)
	}
	return sources{c}, nil
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
	return errNotFound("no controller %q; known: %s", name, strings.Join(h.opts.Registry.Names(), ", "))
}

// now is the server's clock: the first selected controller's, so that tests
// with a fake clock see one time everywhere.
func (h *handler) now(src sources) time.Time {
	if len(src) == 0 {
		src = h.opts.Registry.list()
	}
	if len(src) > 0 {
		return src[0].now()
	}
	return time.Now()
}
