package query

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"k8s.io/utils/clock"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// InProcessHost is the host a client in the same process addresses (log
// mode's and a snapshot's handlers, read through an in-process transport):
// such a handler allows it (Options.AllowedHosts), as a metrics server's
// allows its Service name.
const InProcessHost = "in-process"

// Options configures a Handler. Every field is optional.
type Options struct {
	// Prefix is the path the handler is mounted under. Defaults to
	// api.DefaultPrefix.
	Prefix string
	// States are the states a key can be in: api.States (the default), or
	// LogStates for a source that may hold keys reconstructed from a log.
	States []api.State
	// What names the source in messages ("the log source", "a snapshot");
	// "" for an endpoint, which is the controller's own.
	What string
	// ReadOnly refuses v1/forget and says so in every controller's
	// capabilities.
	ReadOnly bool
	// Forget serves v1/forget (POST, application/json) after the guard;
	// changed says the queue changed, so that no list computed before it
	// answers again. Nil refuses forget with ForgetRefusal: a read-only
	// source cannot reach a queue.
	Forget func(w http.ResponseWriter, r *http.Request) (changed bool, err error)
	// ForgetRefusal is the message v1/forget is refused with (403): why
	// nothing can forget a key here, and what to do instead.
	ForgetRefusal string
	// AllowedHosts lists the host names (a port is ignored) requests may be
	// addressed to besides loopback addresses, localhost and the address the
	// request came in on. "*" allows any, giving up the DNS-rebinding guard.
	AllowedHosts []string
	// MaxConcurrentLists bounds the list computations (v1/keys, v1/errors,
	// v1/controllers) that run at once. Defaults to DefaultMaxConcurrentLists.
	MaxConcurrentLists int
	// AdmissionWait is how long a list request waits for a free computation
	// before it is answered 429. Defaults to DefaultAdmissionWait.
	AdmissionWait time.Duration
	// Reuse is how long a computed list answers identical requests under
	// load. Defaults to DefaultReuse if zero; negative turns reuse off.
	Reuse time.Duration
	// MaxRequestsPerSecond bounds the reads served each second. Defaults to
	// DefaultMaxRequestsPerSecond if zero; negative turns pacing off (for a
	// benchmark of what one read costs).
	MaxRequestsPerSecond int
	// WatchTick is how often a watched page is computed again. Defaults to
	// DefaultWatchTick.
	WatchTick time.Duration
	// MaxWatches bounds the watches open at once. Defaults to
	// DefaultMaxWatches.
	MaxWatches int
	// Clock ticks the watches; tests step a fake one. Defaults to the
	// real clock.
	Clock clock.WithTicker
}

// Handler is the v1 API over a Source: the one HTTP layer of the
// instrument's endpoint, the log-mode server and the snapshot server. The
// guard, the URL bound, pacing, admission, parameters, limits, paging
// (continue), serverTime and errors (each 400 naming its field) hold for
// every source because each is written once, here.
type Handler struct {
	src    Source
	opts   Options
	adm    *admission
	pace   *pacer
	routes map[string]route

	watchMu  sync.Mutex
	hubs     map[string]*hub // the queries watched now
	watchers int
}

// route is an endpoint: its method and what serves it. A serve function
// returns its error for ServeHTTP to write, so every error takes one path.
type route struct {
	method string
	serve  func(http.ResponseWriter, *http.Request) error
}

// NewHandler serves src's v1 API under opts.Prefix.
func NewHandler(src Source, opts Options) *Handler {
	if opts.Prefix == "" {
		opts.Prefix = api.DefaultPrefix
	}
	if !strings.HasSuffix(opts.Prefix, "/") {
		opts.Prefix += "/"
	}
	if opts.States == nil {
		opts.States = api.States
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
	if opts.MaxRequestsPerSecond == 0 {
		opts.MaxRequestsPerSecond = DefaultMaxRequestsPerSecond
	}
	if opts.WatchTick <= 0 {
		opts.WatchTick = DefaultWatchTick
	}
	if opts.MaxWatches <= 0 {
		opts.MaxWatches = DefaultMaxWatches
	}
	if opts.Clock == nil {
		opts.Clock = clock.RealClock{}
	}
	h := &Handler{src: src, opts: opts, hubs: map[string]*hub{}, adm: newAdmission(opts.MaxConcurrentLists, opts.AdmissionWait, opts.Reuse)}
	if opts.MaxRequestsPerSecond > 0 {
		h.pace = newPacer(opts.MaxRequestsPerSecond, maxPacerRest)
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

// ServeHTTP routes a request under the prefix to its endpoint, after the
// guard and the method check.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if err := h.serve(w, r); err != nil {
		WriteError(w, r, err)
	}
}

func (h *Handler) serve(w http.ResponseWriter, r *http.Request) error {
	if err := h.checkRequest(r); err != nil {
		return err
	}
	path, ok := strings.CutPrefix(r.URL.Path, h.opts.Prefix)
	if !ok && r.URL.Path+"/" == h.opts.Prefix {
		path, ok = "", true
	}
	if !ok {
		return NotFound("no endpoint at %s; the API is under %s", r.URL.Path, h.opts.Prefix)
	}
	rt, ok := h.routes[strings.TrimSuffix(path, "/")]
	if !ok {
		return NotFound("no endpoint %q; use v1/controllers, v1/keys, v1/errors, v1/key or v1/forget", path)
	}
	if r.Method != rt.method && !(rt.method == http.MethodGet && r.Method == http.MethodHead) {
		w.Header().Set("Allow", rt.method)
		return Errorf(http.StatusMethodNotAllowed, "%s %s: method not allowed; use %s", r.Method, path, rt.method)
	}
	if _, ok := watchable[path]; ok && watching(r) {
		// A watch is admitted on its own bound, and its hub's reads are
		// paced, each tick: the stream holds no reader's slot.
		return h.watch(w, r, path)
	}
	if rt.method == http.MethodGet && h.pace != nil {
		done, err := h.pace.enter(r.Context())
		if err != nil {
			return err
		}
		defer done()
	}
	return rt.serve(w, r)
}

// index lists the API, for a human with curl.
func (h *Handler) index(w http.ResponseWriter, r *http.Request) error {
	serveJSON(w, r, http.StatusOK, map[string]any{
		"versions":    []string{api.APIVersion},
		"controllers": h.src.Names(),
		"endpoints": []string{
			"GET v1/controllers",
			"GET v1/keys?controller=&q=&error=&state=&sort=" + strings.Join(api.Sorts, "|") + "&limit=&offset=&continue=",
			"GET v1/keys?watch=true&resourceVersion=&controller=&q=&error=&state=&sort=&limit= (JSON lines: PAGE, then CHANGE or BOOKMARK each tick)",
			"GET v1/errors?controller=&q=&error=&state=",
			"GET v1/errors?watch=true&resourceVersion=&controller=&q=&error=&state= (JSON lines, as v1/keys')",
			"GET v1/controllers?watch=true&resourceVersion= (JSON lines, as v1/keys')",
			"GET v1/key?controller=&key= (or &handle=)",
			"POST v1/forget {controller, keys | handles | filter{q,state}, requeue, spread, dryRun} (Content-Type: application/json)",
		},
		"readOnly": h.readOnly(),
	})
	return nil
}

func (h *Handler) readOnly() bool { return h.opts.ReadOnly || h.opts.Forget == nil }

func (h *Handler) key(w http.ResponseWriter, r *http.Request) error {
	v, err := ParseParams(r.URL.RawQuery, KeyParams)
	if err != nil {
		return err
	}
	key, err := KeyParam(v.Get("key"), v.Get("handle"))
	if err != nil {
		return err
	}
	if c := v.Get("controller"); c != "" {
		if _, err := h.selected(c); err != nil {
			return err
		}
	}
	d, err := h.src.Key(v.Get("controller"), key)
	if err != nil {
		return err
	}
	withHandle(&d.Key)
	serveJSON(w, r, http.StatusOK, d)
	return nil
}

func (h *Handler) forget(w http.ResponseWriter, r *http.Request) error {
	if h.readOnly() {
		msg := h.opts.ForgetRefusal
		if msg == "" {
			msg = "the endpoint is read-only: forget is disabled"
		}
		return Forbidden("%s", msg)
	}
	if _, err := ParseParams(r.URL.RawQuery, nil); err != nil {
		return err
	}
	changed, err := h.opts.Forget(w, r)
	if changed {
		h.adm.forgetResults() // the next list shows what the forget did
	}
	return err
}

// selected resolves the controller parameter: the one named, or every one
// when name is "".
func (h *Handler) selected(name string) ([]string, error) {
	all := h.src.Names()
	if name == "" {
		return all, nil
	}
	for _, n := range all {
		if n == name {
			return []string{name}, nil
		}
	}
	in := ""
	if h.opts.What != "" {
		in = " in " + h.opts.What
	}
	return nil, NotFound("no controller %q%s; known: %s", name, in, strings.Join(all, ", "))
}

// withHandle gives a key that JSON cannot carry its lossless handle.
func withHandle(k *api.Key) {
	if k.Handle == "" && !utf8.ValidString(k.Key) {
		k.Handle = base64.RawURLEncoding.EncodeToString([]byte(k.Key))
	}
}

// KeyParam is the key v1/key names, by key or by handle (Key.Handle).
func KeyParam(key, handle string) (string, error) {
	switch {
	case key != "" && handle != "":
		return "", Invalid("handle", "give key or handle, not both")
	case handle != "":
		k, err := KeyOfHandle(handle)
		if err != nil {
			return "", Invalid("handle", "%v", err)
		}
		return k, nil
	case key == "":
		return "", Invalid("key", "required")
	}
	return key, nil
}

// KeyOfHandle is the key a Key.Handle names.
func KeyOfHandle(handle string) (string, error) {
	b, err := base64.RawURLEncoding.DecodeString(handle)
	if err != nil {
		return "", fmt.Errorf("%q is not a key handle (unpadded base64url, as the key's handle field gives it)", handle)
	}
	return string(b), nil
}
