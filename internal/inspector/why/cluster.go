package why

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/rest"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/cluster"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/logs"
)

// probeTimeout bounds asking one instrumented pod what it runs: a pod out of
// reach must not hold up the answer.
const probeTimeout = 15 * time.Second

// Cluster reads keys from controllers' pods through the API server: the
// endpoint through a port-forward (inspector.Attach), the log through
// pods/log (logs.Store.Follow, read once).
type Cluster struct {
	REST *rest.Config
	Core cluster.Clientset
	// Since is how much of a log is read. Defaults to logs.DefaultSince.
	Since time.Duration

	// Sessions and logs already opened, by namespace and target: `why TYPE`
	// asks one controller about many keys. Close releases them.
	sessions map[string]*inspector.Session
	stores   map[string]*logs.Store
}

// Close stops the port-forwards the reader opened.
func (c *Cluster) Close() {
	for _, s := range c.sessions {
		s.Close()
	}
	c.sessions = nil
}

// Reread drops the logs already read, so that the next Logs reads them
// again: `top --for` asks again on each refresh, and a log read once would
// stand still. The port-forwards stay open: an endpoint answers live.
func (c *Cluster) Reread() { c.stores = nil }

var _ KeyReader = &Cluster{}

// attach opens a session on the pods of target in namespace.
func (c *Cluster) attach(ctx context.Context, namespace string, target cluster.Target) (*inspector.Session, error) {
	s, err := inspector.Attach(ctx, inspector.AttachConfig{REST: c.REST, Clientset: c.Core, Target: target,
		Namespace: namespace, Scheme: "http", Prefix: api.DefaultPrefix})
	return s, err
}

// Probe asks an instrumented pod which controllers it runs.
func (c *Cluster) Probe(ctx context.Context, p cluster.Pod) ([]api.Controller, error) {
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	s, err := c.attach(ctx, p.Namespace, cluster.Target{Kind: cluster.KindPod, Name: p.Name})
	if err != nil {
		return nil, err
	}
	defer s.Close()
	ov, err := s.Overview(ctx)
	if err != nil {
		return nil, err
	}
	return ov.Controllers, nil
}

// Endpoint reads the key from the controller's endpoint.
func (c *Cluster) Endpoint(ctx context.Context, ctl *Controller, gk schema.GroupKind, key string) (*Backoff, error) {
	t, err := ctl.target()
	if err != nil {
		return nil, err
	}
	id := ctl.Namespace + "/" + ctl.Target
	s := c.sessions[id]
	if s == nil {
		if s, err = c.attach(ctx, ctl.Namespace, t); err != nil {
			return nil, fmt.Errorf("%s in namespace %s: %w", ctl.Target, ctl.Namespace, err)
		}
		if c.sessions == nil {
			c.sessions = map[string]*inspector.Session{}
		}
		c.sessions[id] = s
	}
	b, err := keyFromSession(ctx, s, ctl.Name, gk, key)
	if err != nil && !errors.Is(err, ErrNoController) {
		return nil, fmt.Errorf("%s in namespace %s: %w", ctl.Target, ctl.Namespace, err)
	}
	return b, err
}

// keyFromSession reads key from the controller of kind gk (or the one
// named name) of an endpoint's session.
func keyFromSession(ctx context.Context, s *inspector.Session, ctlName string, gk schema.GroupKind, key string) (*Backoff, error) {
	ov, err := s.Overview(ctx)
	if err != nil {
		return nil, err
	}
	if len(ov.Controllers) == 0 {
		return nil, ErrNoController
	}
	names := controllersOfKind(ov.Controllers, gk, ctlName)
	if len(names) == 0 {
		return nil, ErrNoController
	}
	// Several controllers of the kind: the key is the one that tracks it
	// (each keeps only the keys it reconciled), else the first is named.
	b := &Backoff{Source: SourceEndpoint, Controller: names[0], ServerTime: ov.ServerTime}
	for _, name := range names {
		d, err := s.Key(ctx, name, key)
		switch {
		case isNotFound(err):
			continue
		case err != nil:
			return nil, err
		}
		k := d.Key
		b.Controller, b.Key, b.ServerTime = name, &k, d.ServerTime
		for _, c := range ov.Controllers {
			if c.Name == name {
				b.Requeues = c.Capabilities.Requeues()
			}
		}
		return b, nil
	}
	who := fmt.Sprintf("controller %q tracks no key %s", names[0], key)
	if len(names) > 1 {
		who = fmt.Sprintf("none of controllers %s tracks key %s", strings.Join(names, ", "), key)
	}
	b.NotTracked = who + ": it has not failed on it since it started (a success forgets a key), or the key was forgotten"
	return b, nil
}

// Logs reads the key from the log of the controller's pods.
func (c *Cluster) Logs(ctx context.Context, ctl *Controller, key string) (*Backoff, error) {
	t, err := ctl.target()
	if err != nil {
		return nil, err
	}
	id := ctl.Namespace + "/" + ctl.Target
	store := c.stores[id]
	if store == nil {
		store = logs.NewStore(logs.Options{Live: true})
		stop, err := store.Follow(ctx, logs.StreamConfig{Clientset: c.Core, Target: t, Namespace: ctl.Namespace, Since: c.Since, Once: true})
		if err != nil {
			if r := Refused(err, "get", "pods/log", ctl.Namespace, "to read the log of "+ctl.Target+" for the key "+key); r != err {
				return nil, r
			}
			return nil, fmt.Errorf("the log of %s in namespace %s could not be read: %w", ctl.Target, ctl.Namespace, err)
		}
		stop()
		if c.stores == nil {
			c.stores = map[string]*logs.Store{}
		}
		c.stores[id] = store
	}
	b := &Backoff{Source: SourceLogs}
	d, err := store.Key("", key)
	if _, ok := errors.AsType[*logs.NotFoundError](err); ok {
		b.NotTracked = fmt.Sprintf("the log of %s (the last %v) has no failure for %s: at the default verbosity only failures are logged, so it has not failed on it", ctl.Target, c.since(), key)
		return b, nil
	}
	if err != nil {
		return nil, err
	}
	k := d.Key
	b.Key, b.Controller, b.ServerTime = &k, k.Controller, d.ServerTime
	return b, nil
}

func (c *Cluster) since() time.Duration {
	if c.Since > 0 {
		return c.Since
	}
	return logs.DefaultSince
}
