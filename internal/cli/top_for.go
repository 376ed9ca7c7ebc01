package cli

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"k8s.io/client-go/dynamic"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/cluster"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/describe"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/why"
	"github.com/kubectl-backoff/kubectl-backoff/ui"
)

// forMinRefresh is the shortest refresh of `top --for`: each read lists
// the kind and asks the controller of every object not Current, where a
// controller's keys cost one page.
const forMinRefresh = 5 * time.Second

// validateFor refuses, by name, the flags of a controller's keys that
// `top --for TYPE` does not take.
func (o *TopOptions) validateFor(args []string) error {
	drop := func(flag string) error {
		return fmt.Errorf("--for %s lists the objects of a kind, not a controller's keys: drop %s", o.For, flag)
	}
	switch {
	case len(args) > 0:
		return drop("the TARGET " + args[0])
	case strings.Contains(o.For, "/"):
		return fmt.Errorf("--for %s: give a TYPE (e.g. --for certificates); for one object run kubectl backoff why %s", o.For, o.For)
	case o.addr != "":
		return drop("--addr")
	case o.file != "":
		return drop("--file")
	case o.fromLogs.enabled():
		return drop("--from-logs")
	case o.selector != "":
		return drop("-l")
	case o.Controller != "":
		return drop("--controller")
	case len(o.States) > 0:
		return drop("--state")
	case o.Filter != "":
		return drop("-q")
	}
	return nil
}

// runFor runs `top --for TYPE`: the list `why TYPE` prints, live; enter
// shows an object's answer, and on an answer read from an instrumented
// endpoint, the key's detail; t its chain, each object's answer on enter. The objects are read once before the UI
// opens, so that an unknown kind or a refused list is said as why says it.
func (o *TopOptions) runFor(ctx context.Context, keys io.Reader) error {
	w := &WhyOptions{configFlags: o.configFlags, IOStreams: o.IOStreams, AllNamespaces: o.allNamespaces, args: []string{o.For}, list: true}
	if _, err := w.objects(); err != nil {
		return err
	}
	asker, reader, err := w.clusterReader()
	if err != nil {
		return err
	}
	// One read at a time (the UI sends the next when the last is back),
	// and none while the port-forwards close.
	var mu sync.Mutex
	defer func() {
		mu.Lock()
		defer mu.Unlock()
		reader.Close()
	}()
	list := func(ctx context.Context) (*why.List, error) {
		mu.Lock()
		defer mu.Unlock()
		reader.Reread() // the logs read last time have moved on
		return w.listKind(ctx, asker)
	}
	ask := func(ctx context.Context, obj why.Object) (*why.Answer, error) {
		mu.Lock()
		defer mu.Unlock()
		return asker.AskObject(ctx, obj)
	}
	kctx, ns := o.kubeContext()
	return ui.Run(ctx, ui.Options{Input: keys, Refresh: max(o.Refresh, forMinRefresh), Context: kctx, Namespace: ns, User: o.requester(),
		For: &ui.ForOptions{Type: o.For, AllNamespaces: o.allNamespaces, List: list, Attach: o.attachController, Ask: ask}})
}

// attachController attaches to the controller `why` found for an object
// (TARGET in namespace), as `top TARGET -n NAMESPACE` would, for the key's
// detail.
func (o *TopOptions) attachController(ctx context.Context, namespace, target string) (*inspector.Session, *describe.ObjectReader, error) {
	cfg, err := o.attachConfig()
	if err != nil {
		return nil, nil, err
	}
	t, err := inspector.ParseTarget(target, "")
	if err != nil {
		return nil, nil, err
	}
	cfg.Target, cfg.Namespace, cfg.AllNamespaces = t, namespace, false
	return describe.Attach(ctx, cfg)
}

// chainWalker walks the chain of the object behind a key, for the detail
// view's blocker line, one walk at a time; nil when the kubeconfig gives
// no cluster to read.
func (o *TopOptions) chainWalker() func(context.Context, why.Object) (*why.Chain, error) {
	cfg, err := o.configFlags.ToRESTConfig()
	if err != nil {
		return nil
	}
	cs, err := cluster.NewClientset(cfg)
	if err != nil {
		return nil
	}
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return nil
	}
	asker := &why.Asker{Kinds: &why.DiscoveryKinds{Discovery: cs.Discovery()}, Graph: &why.Graph{Dynamic: dyn, Discovery: cs.Discovery()}}
	var mu sync.Mutex
	return func(ctx context.Context, obj why.Object) (*why.Chain, error) {
		mu.Lock()
		defer mu.Unlock()
		return asker.ChainOf(ctx, obj)
	}
}
