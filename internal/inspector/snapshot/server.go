package snapshot

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/query"
)

// A snapshot answers the endpoint's read API (v1/controllers, keys, key,
// errors) as its replicas did when it was taken, through the query
// engine's one read handler, as inspector/logs serves a log: the Session,
// top's UI, get and describe work on it unchanged, read-only, with the
// endpoint's parameters, limits, paging (continue) and errors. Error groups
// are the engine's fingerprints of the keys' messages, the same function
// the server grouped by. It is served in process, through a RoundTripper:
// no port is opened.

// Handlers are f's replicas, one handler each named as its pod was, so that
// a session over them (inspector.InProcessSession) keeps each key's pod and
// a standby a standby.
func Handlers(f *File) []inspector.NamedHandler {
	out := make([]inspector.NamedHandler, len(f.Endpoints))
	for i := range f.Endpoints {
		out[i] = inspector.NamedHandler{Name: f.Endpoints[i].Name, Handler: newServer(&f.Endpoints[i], f.TakenAt)}
	}
	return out
}

// server answers for one replica of a snapshot.
type server struct {
	ep      *Endpoint
	takenAt time.Time // the file's: what the list's source says
	details map[key]*api.Key
	read    http.Handler
}

func newServer(ep *Endpoint, takenAt time.Time) *server {
	s := &server{ep: ep, takenAt: takenAt, details: map[key]*api.Key{}}
	for i := range ep.Details {
		k := &ep.Details[i]
		s.details[key{k.Controller, k.Key}] = k
	}
	s.read = query.NewHandler(s, query.Options{
		States:        query.LogStates, // a snapshot of a log source holds unknown keys
		What:          "a snapshot",
		ForgetRefusal: "a snapshot is read-only: attach to the controller to forget keys",
		AllowedHosts:  []string{query.InProcessHost},
	})
	return s
}

func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.ep.Error != "" {
		query.WriteError(w, r, query.Errorf(http.StatusServiceUnavailable, "not read when the snapshot was taken: %s", s.ep.Error))
		return
	}
	s.read.ServeHTTP(w, r)
}

// Names implements query.Source: the replica's controllers.
func (s *server) Names() []string {
	names := make([]string, len(s.ep.Controllers))
	for i, c := range s.ep.Controllers {
		names[i] = c.Name
	}
	slices.Sort(names)
	return names
}

// Now implements query.Source: the time the snapshot was taken at.
func (s *server) Now() time.Time { return s.ep.ServerTime }

// Controllers implements query.Source: the replica's controllers, read-only.
func (s *server) Controllers(context.Context) (*api.ControllerList, error) {
	// The source says once that this is a snapshot, and of what: a log's
	// facts as they were read, when it was taken from a log.
	src := api.ListSource{SnapshotAt: s.takenAt}
	if s.ep.Source != nil {
		src = *s.ep.Source
		src.SnapshotAt = s.takenAt
	}
	out := &api.ControllerList{ServerTime: s.ep.ServerTime, Controllers: slices.Clone(s.ep.Controllers), Source: &src}
	for i := range out.Controllers {
		out.Controllers[i].Capabilities = api.Capabilities{ReadOnly: true}
	}
	return out, nil
}

// View implements query.Source: the keys as they were.
func (s *server) View(_ context.Context, names []string) (time.Time, query.View, error) {
	return s.ep.ServerTime, query.KeysView(names, s.ep.Keys), nil
}

// Key implements query.Source: the key's detail (with history) if the
// snapshot holds one, else the key as the list has it.
func (s *server) Key(controller, k string) (*api.KeyDetail, error) {
	switch {
	case controller == "":
		return s.keyOfAny(k)
	case !slices.ContainsFunc(s.ep.Controllers, func(c api.Controller) bool { return c.Name == controller }):
		return nil, query.NotFound("no controller %q in the snapshot; known: %s", controller, s.names())
	}
	if d, ok := s.details[key{controller, k}]; ok {
		return &api.KeyDetail{ServerTime: s.ep.ServerTime, Key: *d}, nil
	}
	for _, x := range s.ep.Keys {
		if x.Controller == controller && x.Key == k {
			return &api.KeyDetail{ServerTime: s.ep.ServerTime, Key: x}, nil
		}
	}
	return nil, query.NotFound("controller %q has no key %q in the snapshot", controller, k)
}

// keyOfAny is v1/key without a controller, as every source reads it: the
// key of the one controller that has it; a 400 naming the parameter when
// several do, a 404 when none does.
func (s *server) keyOfAny(k string) (*api.KeyDetail, error) {
	var names []string
	for _, c := range s.ep.Controllers {
		if s.has(c.Name, k) {
			names = append(names, c.Name)
		}
	}
	switch len(names) {
	case 0:
		return nil, query.NotFound("no controller has key %q in the snapshot", k)
	case 1:
		return s.Key(names[0], k)
	}
	return nil, query.AmbiguousKey(k, names)
}

// has reports whether controller has key k in the snapshot.
func (s *server) has(controller, k string) bool {
	if _, ok := s.details[key{controller, k}]; ok {
		return true
	}
	return slices.ContainsFunc(s.ep.Keys, func(x api.Key) bool { return x.Controller == controller && x.Key == k })
}

func (s *server) names() string { return strings.Join(s.Names(), ", ") }
