package instrument

import (
	"context"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/query"
	"slices"
	"strings"
	"sync"
	"time"
)

// DefaultRegistry is the registry New uses and Handler serves when none is
// given. It is the package's only global, and nothing is added to it unless
// the program builds a probe.
var DefaultRegistry = NewRegistry()

// Registry lists the instrumented controllers of a process, for one endpoint.
type Registry struct {
	mu          sync.RWMutex
	controllers []controllerSource // sorted by name
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry { return &Registry{} }

// controllerSource is what the endpoint needs of a probe, whatever its item type.
type controllerSource interface {
	Name() string
	now() time.Time
	info(now time.Time) api.Controller
	scan(ctx context.Context, now int64, buf []query.Item, fn func([]query.Item) error) ([]query.Item, error)
	lookup(key string) (_ api.Key, at time.Time, ok bool)
	brief(key string, now int64) (api.Key, bool)
	forget(req *api.ForgetRequest, now time.Time) (api.ForgetResponse, error)
}

// add lists c, replacing a controller of the same name.
func (r *Registry) add(c controllerSource) {
	r.mu.Lock()
	defer r.mu.Unlock()
	i, found := slices.BinarySearchFunc(r.controllers, c.Name(), func(x controllerSource, name string) int {
		return strings.Compare(x.Name(), name)
	})
	if found {
		r.controllers[i] = c
		return
	}
	r.controllers = slices.Insert(r.controllers, i, c)
}

// rename lists c under the name set gives it, which runs under the lock so
// that the list stays sorted; a controller already of that name is replaced.
func (r *Registry) rename(c controllerSource, set func()) {
	r.mu.Lock()
	r.controllers = slices.DeleteFunc(r.controllers, func(x controllerSource) bool { return x == c })
	set()
	r.mu.Unlock()
	r.add(c)
}

// Remove unlists the controller named name, e.g. when it is stopped for good.
func (r *Registry) Remove(name string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.controllers = slices.DeleteFunc(r.controllers, func(c controllerSource) bool { return c.Name() == name })
}

// Names lists the registered controllers, sorted.
func (r *Registry) Names() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	names := make([]string, len(r.controllers))
	for i, c := range r.controllers {
		names[i] = c.Name()
	}
	return names
}

// list returns the registered controllers, sorted by name.
func (r *Registry) list() []controllerSource {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return slices.Clone(r.controllers)
}

// get returns the controller named name.
func (r *Registry) get(name string) (controllerSource, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	for _, c := range r.controllers {
		if c.Name() == name {
			return c, true
		}
	}
	return nil, false
}
