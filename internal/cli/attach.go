package cli

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"

	"github.com/spf13/pflag"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/utils/clock"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/cluster"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/describe"
)

// attachOptions are the flags of every command that reads an endpoint: where
// it is (--addr, or a Kubernetes target reached through port-forward) and how
// to talk to it.
type attachOptions struct {
	configFlags   *genericclioptions.ConfigFlags
	addr          string
	selector      string
	port          string
	allNamespaces bool
	scheme        string
	prefix        string

	target cluster.Target
	// cluster is what complete resolved from kubeconfig (the REST config
	// and the namespace), or why it could not: validate reports that after
	// the flags' own errors, since a bad flag is the first thing to fix.
	cluster    inspector.AttachConfig
	clusterErr error
	resolved   bool
	// noClusterRemedy is what to do with no cluster configured, when not
	// attachRemedy: --from-logs TARGET's, which takes no --addr.
	noClusterRemedy string
	// addrTarget is a TARGET given with --addr, which takes none: validate
	// refuses it by name. It stays in the arguments for the command's own checks.
	addrTarget string
	// waitNote, when set (the one-shot commands' stderr; not top's, whose
	// screen says it), hears "waiting for ADDR…" once a request to an
	// endpoint has gone unanswered for waitNoteAfter; clock times it.
	// addrReadsObjects, with --addr, reads the objects behind keys through
	// kubeconfig's cluster when there is one (describe sets it).
	addrReadsObjects bool
	waitNote         io.Writer
	clock            clock.WithTickerAndDelayedExecution // also ticks -w's polling
}

func newAttachOptions(cf *genericclioptions.ConfigFlags) attachOptions {
	return attachOptions{configFlags: cf, scheme: "http", prefix: api.DefaultPrefix, clock: clock.RealClock{}}
}

func (o *attachOptions) addFlags(fs *pflag.FlagSet) {
	fs.Var((*onceAddr)(&o.addr), "addr", "Talk to this endpoint directly (e.g. http://127.0.0.1:8082) instead of port-forwarding to a pod")
	fs.StringVarP(&o.selector, "selector", "l", o.selector, "Attach to the pods matching this label selector")
	fs.StringVar(&o.port, "port", o.port, "Pod port of the endpoint, by number or name (default: the port named \"backoff\", else 8082)")
	fs.BoolVarP(&o.allNamespaces, "all-namespaces", "A", o.allNamespaces, "Discover instrumented pods in every namespace, and without a TARGET attach to all of them (at most 50, -l narrows) in one view")
	fs.StringVar(&o.scheme, "scheme", o.scheme, "http for the loopback listener, https for the metrics server (sends your kubeconfig credentials); with --addr, the address says it")
	fs.StringVar(&o.prefix, "path", o.prefix, "Path the endpoint is mounted under; with --addr, the address says it (http://HOST:PORT/PATH/)")
}

// completeTarget takes a leading TARGET argument (KIND/NAME with a kind kubectl
// knows: pod/, deploy/, sts/, rs/) off args. Keys also contain a slash, so
// only a known kind makes an argument a target; with --addr there is none.
func (o *attachOptions) completeTarget(args []string) ([]string, error) {
	if o.addr != "" && len(args) > 0 && looksLikeTarget(args[0]) {
		o.addrTarget = args[0]
	}
	if o.addr == "" && len(args) > 0 && looksLikeTarget(args[0]) {
		t, err := inspector.ParseTarget(args[0], o.selector)
		if err != nil {
			return nil, err
		}
		o.target = t
		return args[1:], nil
	}
	t, err := inspector.ParseTarget("", o.selector)
	if err != nil {
		return nil, err
	}
	o.target = t
	return args, nil
}

func looksLikeTarget(arg string) bool {
	kind, _, ok := strings.Cut(arg, "/")
	if !ok {
		return false
	}
	_, err := inspector.ParseTarget(kind+"/x", "")
	return err == nil
}

// completeCluster resolves kubeconfig and namespace when attaching goes
// through the API server: needed is false for --addr, and for sources that
// need no cluster (a snapshot, a saved log).
func (o *attachOptions) completeCluster(needed bool) {
	o.resolved = true
	if o.addr != "" || !needed {
		return
	}
	o.cluster, o.clusterErr = o.resolveCluster()
}

// completeLogsCluster is completeCluster for a command that takes
// --from-logs: a log read from a TARGET's pods needs the cluster, and its
// remedy when none is configured is not --addr, which --from-logs refuses.
func (o *attachOptions) completeLogsCluster(fl *fromLogsOptions, needed bool) {
	if fl.enabled() && fl.source == fromTarget {
		o.noClusterRemedy = logsRemedy
	}
	o.completeCluster(needed && needsCluster(fl))
}

func (o *attachOptions) validate() error {
	if o.addr != "" && (o.addrTarget != "" || !o.target.IsZero() || o.allNamespaces) {
		return fmt.Errorf("--addr talks to one endpoint directly: drop the TARGET, -l and -A")
	}
	if o.scheme != "http" && o.scheme != "https" {
		return fmt.Errorf("--scheme %q: use http or https", o.scheme)
	}
	if !strings.HasPrefix(o.prefix, "/") {
		return fmt.Errorf("--path %q: must start with /", o.prefix)
	}
	if err := o.validateAddrURL(); err != nil {
		return err
	}
	if err := cluster.PortSpec(o.port).Validate(); err != nil {
		return err
	}
	return o.clusterErr
}

// open attaches: directly, or through port-forwards to the target's pods.
// The returned object reader is nil when there is no cluster to read from.
// When discovery finds several instrumented pods, it lists them on out and
// fails: the user names one as TARGET, as kubectl would have them do.
func (o *attachOptions) open(ctx context.Context, out io.Writer) (*inspector.Session, *describe.ObjectReader, error) {
	s, objects, err := o.attach(ctx)
	if pods, ok := errors.AsType[*inspector.MultiplePodsError](err); ok {
		printPods(out, pods.Pods)
		return nil, nil, fmt.Errorf("%d instrumented pods found: name one as TARGET (pod/NAME)", len(pods.Pods))
	}
	return s, objects, err
}

// validateAddrURL refuses a --scheme or --path that --addr would ignore:
// they say how to reach a pod's port through port-forward, while --addr
// is the whole address. The error writes the address the user meant.
func (o *attachOptions) validateAddrURL() error {
	if o.addr == "" {
		return nil
	}
	if err := addrQueryRefused(o.addr); err != nil {
		return err
	}
	u, err := url.Parse(directURL(o.addr))
	if err != nil || u.Host == "" {
		return nil // the client names what is wrong with the address
	}
	meant, flags := *u, []string{}
	if o.scheme != "http" && o.scheme != u.Scheme { // http is the default: said or not, an https address keeps https
		meant.Scheme, flags = o.scheme, append(flags, "--scheme")
	}
	if dir(o.prefix) != dir(cmp.Or(strings.TrimPrefix(u.Path, "/"), api.DefaultPrefix)) && o.prefix != api.DefaultPrefix {
		meant.Path, flags = o.prefix, append(flags, "--path")
	}
	if len(flags) == 0 {
		return nil
	}
	return fmt.Errorf("%s with --addr: --addr is the whole address, so say it there: --addr %s", strings.Join(flags, " and "), meant.String())
}

// addrQueryRefused refuses an --addr copied from a request with its query
// (…/v1/keys?state=failed): the address says where the API is, never what to
// list, so the query would be dropped, and `-o name | forget` would act on
// keys the user thought were filtered out. The error says the flags to use.
func addrQueryRefused(addr string) error {
	u, err := url.Parse(directURL(addr))
	if err != nil {
		return nil // the client names what is wrong with the address
	}
	raw, _ := url.Parse(addr)
	if !strings.Contains(addr, "://") {
		raw, _ = url.Parse("http://" + addr)
	}
	if raw == nil || raw.RawQuery == "" {
		return nil
	}
	var say []string
	for name, vals := range raw.Query() {
		flag := paramFlags[name]
		if flag == "" || !strings.HasPrefix(flag, "-") {
			flag = name + "=…"
		} else {
			flag = strings.TrimPrefix(flag, "-q/") + " " + strings.Join(vals, ",")
		}
		say = append(say, flag)
	}
	slices.Sort(say)
	return fmt.Errorf("--addr %s: the address's query (?%s) is not read: --addr says where the endpoint is; say what to list with flags (%s) and --addr %s",
		addr, raw.RawQuery, strings.Join(say, " "), u.String())
}

// directURL is --addr as a URL: http:// unless it names a scheme. An
// address copied from a request (…/debug/backoff/v1/keys, as the demo
// prints) names an endpoint of the API, not where it is mounted: the path
// up to v1/ is the mount, and the rest is dropped (a query is refused
// before: addrQueryRefused).
func directURL(addr string) string {
	if !strings.Contains(addr, "://") {
		addr = "http://" + addr
	}
	u, err := url.Parse(addr)
	if err != nil {
		return addr // the client names what is wrong with it
	}
	if m := apiPath.FindStringSubmatch(u.Path); m != nil {
		u.Path, u.RawPath, u.RawQuery, u.Fragment = m[1], "", "", ""
		return u.String()
	}
	return addr
}

// apiPath is a path that ends in the wire API's version and, maybe, one
// of its endpoints: group 1 is where the API is mounted.
var apiPath = regexp.MustCompile(`^(.*/)` + api.APIVersion + `(/(controllers|keys|errors|key|forget))?/?$`)

// dir is a path with one leading and one trailing slash, as the client
// mounts it.
func dir(p string) string { return "/" + strings.Trim(p, "/") + "/" }

func (o *attachOptions) attach(ctx context.Context) (*inspector.Session, *describe.ObjectReader, error) {
	timeout, err := o.requestTimeout()
	if err != nil {
		return nil, nil, err
	}
	if o.addr != "" {
		var rt http.RoundTripper
		if o.waitNote != nil {
			rt = &waitingTransport{base: http.DefaultTransport, clock: o.clock, out: o.waitNote, timeout: timeout}
		}
		s, err := inspector.Direct(directURL(o.addr), rt)
		if err != nil {
			return nil, nil, fmt.Errorf("--addr: %w", err)
		}
		s.SetRequestTimeout(timeout)
		var objects *describe.ObjectReader
		if o.addrReadsObjects {
			objects = o.kubeconfigObjects()
		}
		return s, objects, nil
	}
	cfg, err := o.attachConfig()
	if err != nil {
		return nil, nil, err
	}
	s, objects, err := describe.Attach(ctx, cfg)
	if err == nil {
		s.SetRequestTimeout(timeout)
	}
	return s, objects, err
}

// attachConfig is what the flags say to attach to through the API server,
// as completeCluster resolved it.
func (o *attachOptions) attachConfig() (inspector.AttachConfig, error) {
	if o.resolved && (o.cluster.REST != nil || o.clusterErr != nil) {
		return o.cluster, o.clusterErr
	}
	return o.resolveCluster()
}

// resolveCluster reads kubeconfig: the REST config and the namespace.
func (o *attachOptions) resolveCluster() (inspector.AttachConfig, error) {
	if o.noCluster() {
		return inspector.AttachConfig{}, noClusterErr(cmp.Or(o.noClusterRemedy, attachRemedy))
	}
	cfg, err := o.configFlags.ToRESTConfig()
	if err != nil {
		return inspector.AttachConfig{}, fmt.Errorf("kubeconfig: %w", err)
	}
	ns, _, err := o.configFlags.ToRawKubeConfigLoader().Namespace()
	if err != nil {
		return inspector.AttachConfig{}, fmt.Errorf("kubeconfig: namespace: %w", err)
	}
	return inspector.AttachConfig{
		REST:          cfg,
		Target:        o.target,
		Namespace:     ns,
		AllNamespaces: o.allNamespaces,
		Port:          cluster.PortSpec(o.port),
		Scheme:        o.scheme,
		Prefix:        o.prefix,
	}, nil
}

// kubeconfigObjects reads the objects behind keys through kubeconfig's
// cluster, for an endpoint reached with --addr (a controller run with go
// run against that cluster) or a saved log: nil without a usable
// kubeconfig (without one, client-go would dial localhost:8080 and the
// object's section would print that error).
func (o *attachOptions) kubeconfigObjects() *describe.ObjectReader {
	if o.configFlags == nil || o.noCluster() {
		return nil
	}
	cfg, err := o.configFlags.ToRESTConfig()
	if err != nil {
		return nil
	}
	cs, err := cluster.NewClientset(cfg)
	if err != nil {
		return nil
	}
	return describe.NewObjectReader(cfg, cs)
}

// noObjects is why no object can be read behind a key: with --addr there
// is no cluster to read it from; without, no kubeconfig (a saved log).
// describe and top say it in the same words.
func (o *attachOptions) noObjects() string {
	if o.addr != "" {
		return "attached with --addr, and no kubeconfig cluster to read it from"
	}
	return "no cluster to read it from"
}

// needsCluster reports whether attaching reads kubeconfig: always, except
// when --from-logs reads a saved log.
func needsCluster(fl *fromLogsOptions) bool { return !fl.enabled() || fl.source == fromTarget }

// onceAddr is --addr: given twice, it refuses rather than keep the last
// silently, which would show one endpoint's keys as if they were all.
type onceAddr string

// String is the address given.
func (a *onceAddr) String() string { return string(*a) }

// Set takes the address, once.
func (a *onceAddr) Set(v string) error {
	if *a != "" && string(*a) != v {
		return fmt.Errorf("given twice (%s and %s): one endpoint at a time; for two controllers, instrument both in one process, or run one command per endpoint", *a, v)
	}
	*a = onceAddr(v)
	return nil
}

// Type names the value in help.
func (a *onceAddr) Type() string { return "string" }
