package instrument

import (
	"context"
	"strings"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/query"
)

// registrySource is a registry's controllers as the query engine's
// Source: the endpoint's v1 API is the engine's handler over it.
type registrySource struct{ reg *Registry }

func (s registrySource) Names() []string { return s.reg.Names() }

// Now is the server's clock: the first controller's, so that tests with a
// fake clock see one time everywhere.
func (s registrySource) Now() time.Time { return clockOf(s.reg.list()) }

func clockOf(cs []controllerSource) time.Time {
	if len(cs) > 0 {
		return cs[0].now()
	}
	return time.Now()
}

func (s registrySource) Controllers(context.Context) (*api.ControllerList, error) {
	all := s.reg.list()
	list := &api.ControllerList{ServerTime: clockOf(all), Controllers: make([]api.Controller, 0, len(all))}
	for _, c := range all {
		list.Controllers = append(list.Controllers, c.info(c.now()))
	}
	return list, nil
}

// View reads the controllers named, one shard at a time, as of the first
// one's clock.
func (s registrySource) View(_ context.Context, names []string) (time.Time, query.View, error) {
	v := &registryView{}
	for _, n := range names {
		c, _ := s.reg.get(n) // nil if removed since: it has no keys
		v.src = append(v.src, c)
	}
	now := clockOf(s.reg.list())
	if len(v.src) > 0 && v.src[0] != nil {
		now = v.src[0].now()
	}
	v.now = now.UnixNano()
	return now, v, nil
}

func (s registrySource) Key(controller, key string) (*api.KeyDetail, error) {
	if controller == "" {
		return s.keyOfAny(key)
	}
	c, err := oneController(s.reg, controller)
	if err != nil {
		return nil, err
	}
	k, now, ok := c.lookup(key)
	if !ok {
		return nil, query.NotFound("controller %q has no key %q", c.Name(), key)
	}
	return &api.KeyDetail{ServerTime: now, Key: k}, nil
}

// keyOfAny is v1/key without a controller, as every source reads it: the
// key of the one controller that has it; a 400 naming the parameter when
// several do, a 404 when none does.
func (s registrySource) keyOfAny(key string) (*api.KeyDetail, error) {
	var found *api.KeyDetail
	var names []string
	for _, c := range s.reg.list() {
		if k, now, ok := c.lookup(key); ok {
			found, names = &api.KeyDetail{ServerTime: now, Key: k}, append(names, c.Name())
		}
	}
	switch len(names) {
	case 0:
		return nil, query.NotFound("no controller has key %q", key)
	case 1:
		return found, nil
	}
	return nil, query.AmbiguousKey(key, names)
}

// registryView is one reading of some controllers' keys: each controller's
// store is copied a shard at a time as Scan goes, and a page's keys are
// read again, in full, by Brief.
type registryView struct {
	src []controllerSource
	now int64
}

func (v *registryView) Scan(ctx context.Context, visit func(int, []query.Item) error) error {
	var buf []query.Item
	for i, c := range v.src {
		if c == nil {
			continue
		}
		var err error
		buf, err = c.scan(ctx, v.now, buf, func(items []query.Item) error { return visit(i, items) })
		if err != nil {
			return err
		}
	}
	return nil
}

func (v *registryView) Brief(ctrl int, it *query.Item) (api.Key, bool) {
	return v.src[ctrl].brief(it.Key, v.now)
}

// oneController resolves a controller parameter that must name exactly one;
// it may be left out when the process has a single controller.
func oneController(reg *Registry, name string) (controllerSource, error) {
	if name != "" {
		c, ok := reg.get(name)
		if !ok {
			return nil, query.NotFound("no controller %q; known: %s", name, strings.Join(reg.Names(), ", "))
		}
		return c, nil
	}
	all := reg.list()
	if len(all) == 1 {
		return all[0], nil
	}
	return nil, query.Invalid("controller", "required: this process has %d controllers (%s)", len(all), strings.Join(reg.Names(), ", "))
}
