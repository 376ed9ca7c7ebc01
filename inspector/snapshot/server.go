package snapshot

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// A snapshot answers the endpoint's read API (v1/controllers, keys, key,
// errors) as its replicas did when it was taken, so that the Session, top's
// UI, get and describe work on it unchanged, read-only. It is served in
// process, through a RoundTripper, as inspector/logs serves a log: no port
// is opened.

// Session returns a read-only session over f: one endpoint per replica, so
// keys keep their pod and a standby stays a standby.
func Session(f *File) *inspector.Session {
	eps := make([]*inspector.Endpoint, 0, len(f.Endpoints))
	for i := range f.Endpoints {
		e := &f.Endpoints[i]
		eps = append(eps, inspector.InProcessEndpoint(e.Name, newServer(e)))
	}
	return inspector.NewSession(eps, nil)
}

// server answers for one replica of a snapshot.
type server struct {
	ep      *Endpoint
	details map[key]*api.Key
	mux     *http.ServeMux

	once sync.Once
	fps  []string // see fingerprints
}

func newServer(ep *Endpoint) *server {
	s := &server{ep: ep, details: map[key]*api.Key{}, mux: http.NewServeMux()}
	for i := range ep.Details {
		k := &ep.Details[i]
		s.details[key{k.Controller, k.Key}] = k
	}
	p := api.DefaultPrefix + api.APIVersion + "/"
	s.mux.HandleFunc("GET "+p+"controllers", s.controllers)
	s.mux.HandleFunc("GET "+p+"keys", s.keys)
	s.mux.HandleFunc("GET "+p+"key", s.key)
	s.mux.HandleFunc("GET "+p+"errors", s.errors)
	s.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			inspector.ServeError(w, http.StatusForbidden, "a snapshot is read-only: attach to the controller to forget keys")
			return
		}
		inspector.ServeError(w, http.StatusNotFound, fmt.Sprintf("%s %s: not part of a snapshot", r.Method, r.URL.Path))
	})
	return s
}

func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.ep.Error != "" {
		inspector.ServeError(w, http.StatusServiceUnavailable, "not read when the snapshot was taken: "+s.ep.Error)
		return
	}
	s.mux.ServeHTTP(w, r)
}

func (s *server) controllers(w http.ResponseWriter, _ *http.Request) {
	out := api.ControllerList{ServerTime: s.ep.ServerTime, Controllers: slices.Clone(s.ep.Controllers)}
	for i := range out.Controllers {
		out.Controllers[i].Capabilities = api.Capabilities{ReadOnly: true}
	}
	inspector.ServeJSON(w, http.StatusOK, out)
}

// selected is the keys of the controller parameter: one controller, or all.
func (s *server) selected(w http.ResponseWriter, r *http.Request) ([]api.Key, bool) {
	name := r.URL.Query().Get("controller")
	if name == "" {
		return s.ep.Keys, true
	}
	if !slices.ContainsFunc(s.ep.Controllers, func(c api.Controller) bool { return c.Name == name }) {
		inspector.ServeError(w, http.StatusNotFound, fmt.Sprintf("no controller %q in the snapshot; known: %s", name, s.names()))
		return nil, false
	}
	var out []api.Key
	for _, k := range s.ep.Keys {
		if k.Controller == name {
			out = append(out, k)
		}
	}
	return out, true
}

func (s *server) names() string {
	names := make([]string, len(s.ep.Controllers))
	for i, c := range s.ep.Controllers {
		names[i] = c.Name
	}
	return strings.Join(names, ", ")
}

func (s *server) keys(w http.ResponseWriter, r *http.Request) {
	v := r.URL.Query()
	m, err := inspector.NewKeyFilter(inspector.FilterParams(v))
	if err != nil {
		inspector.ServeError(w, http.StatusBadRequest, err.Error())
		return
	}
	order, err := api.ParseSort(v.Get("sort"))
	if err != nil {
		inspector.ServeError(w, http.StatusBadRequest, fmt.Sprintf("parameter %q: %v", "sort", err))
		return
	}
	limit, err := inspector.IntParam(v.Get("limit"), "limit", api.DefaultLimit, 1, api.MaxLimit)
	if err != nil {
		inspector.ServeError(w, http.StatusBadRequest, err.Error())
		return
	}
	offset, err := inspector.IntParam(v.Get("offset"), "offset", 0, 0, 1<<30)
	if err != nil {
		inspector.ServeError(w, http.StatusBadRequest, err.Error())
		return
	}
	all, ok := s.selected(w, r)
	if !ok {
		return
	}
	out := api.KeyList{ServerTime: s.ep.ServerTime, Total: len(all), Items: []api.Key{}}
	var items []api.Key
	for _, k := range all {
		if m.Match(k.Key, lastError(&k), k.State) {
			items = append(items, k)
		}
	}
	out.Matched = len(items)
	slices.SortStableFunc(items, func(a, b api.Key) int { return api.CompareKeys(&a, &b, order) })
	items = items[min(offset, len(items)):]
	out.Items = append(out.Items, items[:min(limit, len(items))]...)
	inspector.ServeJSON(w, http.StatusOK, out)
}

func (s *server) key(w http.ResponseWriter, r *http.Request) {
	v := r.URL.Query()
	name, k := v.Get("controller"), v.Get("key")
	switch {
	case k == "":
		inspector.ServeError(w, http.StatusBadRequest, `parameter "key": required`)
		return
	case name == "" && len(s.ep.Controllers) == 1:
		name = s.ep.Controllers[0].Name
	case name == "":
		inspector.ServeError(w, http.StatusBadRequest, fmt.Sprintf(`parameter "controller": required: the snapshot has %d controllers (%s)`, len(s.ep.Controllers), s.names()))
		return
	}
	if d, ok := s.details[key{name, k}]; ok {
		inspector.ServeJSON(w, http.StatusOK, api.KeyDetail{ServerTime: s.ep.ServerTime, Key: *d})
		return
	}
	keys, ok := s.selected(w, r)
	if !ok {
		return
	}
	for _, x := range keys {
		if x.Controller == name && x.Key == k {
			inspector.ServeJSON(w, http.StatusOK, api.KeyDetail{ServerTime: s.ep.ServerTime, Key: x})
			return
		}
	}
	inspector.ServeError(w, http.StatusNotFound, fmt.Sprintf("controller %q has no key %q in the snapshot", name, k))
}
