package inspector

import (
	"context"
	"crypto/tls"
	"fmt"
	"net/http"
	"strings"
	"sync"

	"k8s.io/client-go/rest"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/cluster"
)

// AttachConfig says what to attach to through the API server.
type AttachConfig struct {
	REST *rest.Config
	// Clientset is used for discovery; built from REST if nil.
	Clientset Clientset
	Target    Target
	Namespace string
	// AllNamespaces, with no workload or pod TARGET, attaches to every
	// instrumented pod in the cluster (or those -l selects), whatever
	// controller each runs: at most maxPods, maxOpening tunnels opening at
	// once, a pod out of reach left out of the answers rather than failing them.
	AllNamespaces bool
	Port          PortSpec
	// Scheme is "http" (the loopback listener, the default) or "https" (the
	// metrics server: the kubeconfig's credentials are sent).
	Scheme string
	// Prefix is the path the endpoint is mounted under.
	Prefix string
	// Tunnel configures the port-forwards' reconnects.
	Tunnel TunnelOptions
}

// MultiplePodsError is returned when discovery finds several instrumented pods
// and no target says which: the caller offers them to the user.
type MultiplePodsError struct{ Pods []Pod }

// Error implements error.
func (e *MultiplePodsError) Error() string {
	names := make([]string, len(e.Pods))
	for i, p := range e.Pods {
		names[i] = p.String()
	}
	return fmt.Sprintf("%d instrumented pods found (%s): name one as TARGET", len(e.Pods), strings.Join(names, ", "))
}

// Attach resolves cfg.Target to pods and opens a port-forward to each, kept
// alive in the background until the session is closed. describe.Attach
// also returns a reader of the objects behind keys, over the same clientset.
func Attach(ctx context.Context, cfg AttachConfig) (*Session, error) {
	cs := cfg.Clientset
	if cs == nil {
		var err error
		if cs, err = cluster.NewClientset(cfg.REST); err != nil {
			return nil, err
		}
	}
	pods, err := cluster.Resolve(ctx, cs, cfg.Target, cfg.Namespace, cfg.AllNamespaces, cfg.Port)
	if err != nil {
		return nil, err
	}
	wide := cfg.clusterWide()
	if cfg.Target.IsZero() && len(pods) > 1 && !wide {
		return nil, &MultiplePodsError{Pods: pods}
	}
	found := len(pods)
	if wide {
		pods = pods[:min(len(pods), maxPods)]
		cfg.Tunnel.Opening = make(chan struct{}, maxOpening)
	}
	if cfg.Scheme == "" {
		cfg.Scheme = "http"
	}
	base, err := endpointTransport(cfg)
	if err != nil {
		return nil, err
	}
	runCtx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	slots := cluster.NewPodSlots(cs, cfg.search(), pods)
	endpoints := make([]*Endpoint, 0, len(pods))
	for _, p := range pods {
		t := cluster.NewTunnel(cfg.REST, slots.Resolver(p), cfg.Tunnel)
		wg.Go(func() { _ = t.Run(runCtx) })
		addr := t.Addr
		if wide {
			addr = cluster.FailFast(t)
		}
		rt := dialVia(addr, base)
		var wrapped http.RoundTripper = rt
		if cfg.Scheme == "https" {
			if wrapped, err = rest.HTTPWrappersForConfig(cfg.REST, rt); err != nil {
				cancel()
				return nil, err
			}
		}
		// The tunnel ends on the pod's loopback, so the request says so: the
		// endpoint refuses a Host that is not loopback (DNS rebinding), and
		// this is what `curl localhost:8082` through kubectl port-forward sends.
		if p.PortGuessed {
			wrapped = guessed{wrapped, p}
		}
		c, err := NewClient(fmt.Sprintf("%s://localhost%s", cfg.Scheme, cfg.Prefix), wrapped)
		if err != nil {
			cancel()
			return nil, err
		}
		endpoints = append(endpoints, &Endpoint{Name: p.String(), Workload: p.Workload, Client: c, conn: t.State})
	}
	stop := func() { cancel(); wg.Wait() }
	s := NewSession(endpoints, stop)
	s.clusterWide, s.found = wide, found
	return s, nil
}

// endpointTransport is the transport under the tunnels. The https endpoint's
// certificate names the pod's service, not 127.0.0.1, and the bytes already
// travel inside the API server's authenticated tunnel, so it is not verified.
func endpointTransport(cfg AttachConfig) (*http.Transport, error) {
	t := http.DefaultTransport.(*http.Transport).Clone()
	if cfg.Scheme == "https" {
		t.TLSClientConfig = &tls.Config{InsecureSkipVerify: true} //nolint:gosec // see above
	}
	return t, nil
}

// GuessedPortError is a failure to reach a pod on the port tried because
// it has no container port named PortName (Pod.PortGuessed): the
// controller may not be instrumented at all. A caller that can read a
// controller another way (its log) says so beside it.
type GuessedPortError struct {
	Pod Pod
	Err error
}

// Error implements error.
func (e *GuessedPortError) Error() string {
	return fmt.Sprintf("%v (pod %s has no container port named %q, so port %d was tried: is the controller instrumented?)", e.Err, e.Pod, PortName, e.Pod.Port)
}

// Unwrap is the failure itself.
func (e *GuessedPortError) Unwrap() error { return e.Err }

// guessed makes a failure to connect to a pod whose port was guessed a
// GuessedPortError.
type guessed struct {
	http.RoundTripper
	pod Pod
}

// RoundTrip delegates and wraps a failure to connect.
func (g guessed) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := g.RoundTripper.RoundTrip(r)
	if err != nil {
		err = &GuessedPortError{Pod: g.pod, Err: err}
	}
	return resp, err
}
