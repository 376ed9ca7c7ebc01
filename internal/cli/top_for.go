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
	case o.file != "":
		return drop("--file")
	case o.controllerLog != "" && (o.fromLogs.source == "" || o.fromLogs.source == fromTarget):
		return fmt.Errorf("--controller-log names whose log --from-logs is: give --from-logs FILE too")
	case o.fromLogs.source == fromTarget:
		// Bare --from-logs streams a TARGET's pods' logs; --for has none.
		return fmt.Errorf("--for %s reads the controller's log as kubectl backoff why %s does: give it as --from-logs FILE (alone, --from-logs streams a TARGET's pods' logs)", o.For, o.For)
	case o.fromLogs.source == "-":
		return fmt.Errorf("--for %s follows --from-logs as the file grows: give a file, not - (stdin is read once)", o.For)
	case o.fromLogs.flags != nil && o.fromLogs.flags.Changed("since"):
		return drop("--since")
	case len(o.fromLogs.dialectFiles) > 0:
		return fmt.Errorf("--for %s reads --from-logs as kubectl backoff why %s does, without dialects: drop --dialect", o.For, o.For)
	case o.fromLogs.explainLines:
		return fmt.Errorf("--for %s reads --from-logs as kubectl backoff why %s does: drop --explain-lines (kubectl backoff top --from-logs FILE --explain-lines says how each line is read)", o.For, o.For)
	case o.selector != "":
		return drop("-l")
	case o.Controller != "":
		return drop("--controller")
	case len(o.States) > 0:
		return drop("--state")
	case o.Filter != "":
		return drop("-q")
	}
	// --addr is the controller's endpoint, whole: --scheme and --path say
	// how to reach a pod's port, and are refused with it as top refuses them.
	return o.validateAddrURL()
}

// runFor runs `top --for TYPE`: the list `why TYPE` prints, live; enter
// shows an object's answer, and on an answer read from an instrumented
// endpoint, the key's detail; t its chain, each object's answer on enter.
func (o *TopOptions) runFor(ctx context.Context, keys io.Reader) error {
	opts, done, err := o.forOptions(ctx)
	if err != nil {
		return err
	}
	defer done()
	kctx, ns := o.kubeContext()
	return ui.Run(ctx, ui.Options{Input: keys, Refresh: max(o.Refresh, forMinRefresh), Context: kctx, Namespace: ns, User: o.requester(), For: opts})
}

// forWhy is the `why TYPE` that `top --for TYPE` shows live: its kind,
// namespaces, and the sources of backoff the user named (--addr, an
// operator run outside the cluster; --from-logs FILE, its log).
func (o *TopOptions) forWhy() *WhyOptions {
	w := &WhyOptions{configFlags: o.configFlags, IOStreams: o.IOStreams, AllNamespaces: o.allNamespaces, args: []string{o.For}, list: true,
		FromLogs: o.fromLogs.source, ControllerLog: o.controllerLog}
	if o.addr != "" {
		w.Addrs = []string{o.addr}
	}
	return w
}

// forOptions builds the view's reads, as `why TYPE` reads: the objects are
// read, and --from-logs and --addr opened (forLogFile, addDirect), once
// before the UI opens, so that an unknown kind, a refused list or a log
// not there is said as why says it. done closes the port-forwards, after the last read.
func (o *TopOptions) forOptions(ctx context.Context) (*ui.ForOptions, func(), error) {
	w := o.forWhy()
	if _, err := w.objects(); err != nil {
		return nil, nil, err
	}
	asker, reader, err := w.clusterReader()
	if err != nil {
		return nil, nil, err
	}
	// The log is opened once and followed: each refresh reads what was
	// appended since the last (forLogFile).
	stopLog := func() {}
	asker.PodLogs = w.FromLogs == fromTarget // --from-logs alone: the controllers' pods' logs
	if w.logFile() {
		if asker.FromLog, stopLog, err = o.forLogFile(ctx, w); err != nil {
			reader.Close()
			return nil, nil, err
		}
	}
	if err := w.addDirect(asker); err != nil {
		stopLog()
		reader.Close()
		return nil, nil, err
	}
	// A key read off --addr opens in the detail view on that endpoint,
	// its objects read from the kubeconfig's cluster.
	o.addrReadsObjects = true
	// One read at a time (the UI sends the next when the last is back),
	// and none while the port-forwards close.
	var mu sync.Mutex
	done := func() {
		mu.Lock()
		defer mu.Unlock()
		reader.Close()
		stopLog()
	}
	list := func(ctx context.Context) (*why.List, error) {
		mu.Lock()
		defer mu.Unlock()
		reader.Reread() // the pods' logs read last time have moved on
		return w.listKind(ctx, asker)
	}
	ask := func(ctx context.Context, obj why.Object) (*why.Answer, error) {
		mu.Lock()
		defer mu.Unlock()
		return asker.AskObject(ctx, obj)
	}
	return &ui.ForOptions{Type: o.For, AllNamespaces: o.allNamespaces, List: list, Attach: o.attachController, Ask: ask}, done, nil
}

// attachController attaches to the controller `why` found for an object
// (TARGET in namespace), as `top TARGET -n NAMESPACE` would, for the key's
// detail; the endpoint of --addr, for a key read off it.
func (o *TopOptions) attachController(ctx context.Context, namespace, target string) (*inspector.Session, *describe.ObjectReader, error) {
	if o.addr != "" && target == o.addr {
		// why.Direct's controller: the endpoint the user named, no pod.
		return o.attach(ctx)
	}
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
