package demo

import (
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"time"

	"k8s.io/client-go/rest"

	"github.com/kubectl-backoff/kubectl-backoff/instrument"
)

// Bounds and defaults of Options.
const (
	defaultKeys = 200
	MaxKeys     = 100_000
	maxSpeed    = 10_000
	// DefaultNamespace holds the demo's ConfigMaps, embedded or in a cluster.
	DefaultNamespace = "demo"
	// defaultOutage and defaultOutageEvery are the dependency's outage schedule
	// at speed 1: down for 2 minutes out of every 5.
	defaultOutage      = 2 * time.Minute
	defaultOutageEvery = 5 * time.Minute
)

// shutdownTimeout bounds how long a stop waits for the controllers (and the
// manager's runnables), well within the 5 seconds a Ctrl-C is promised.
const shutdownTimeout = 3 * time.Second

// Options configures a demo. Start them from DefaultOptions: Keys and Speed
// are checked as given, so that a flag set to 0 is an error rather than a
// silent default.
type Options struct {
	// Keys is how many objects the demo creates, spread over the scenarios
	// (flag --keys). DefaultOptions sets defaultKeys; it must be 1..MaxKeys.
	Keys int
	// Seed makes a run deterministic (flag --seed): the same seed picks the
	// same polling readiness, conflicts, slow durations and edited keys.
	// 0 picks one from the clock; Demo.Seed reports it.
	Seed int64
	// Speed compresses time (flag --speed): the outage schedule, RequeueAfter,
	// slow reconciles and the limiters' delays are all divided by it, so the
	// delays the endpoint reports are the ones the queues really use.
	// DefaultOptions sets 1; it must be in (0, maxSpeed].
	Speed float64
	// Jitter spreads every retry and RequeueAfter by a random ±Jitter (flag
	// --jitter, e.g. 0.25), with instrument's Options.Jitter: the forecast of
	// retries flattens. 0, the default, is client-go's behaviour: none. It
	// must be in [0, 1].
	Jitter float64
	// Listen is the endpoint's address (flag --listen); port 0 picks a free
	// port, which Demo.Addr reports. Defaults to instrument.DefaultAddr if empty.
	Listen string

	// Kubeconfig runs the controllers against the cluster of this kubeconfig's
	// current context instead of the embedded store (flag --kubeconfig).
	Kubeconfig string
	// InCluster runs against the API server of the pod the demo runs in
	// (flag --in-cluster).
	InCluster bool
	// RESTConfig runs against this API server; it takes precedence over
	// Kubeconfig and InCluster, for callers that already have a config.
	RESTConfig *rest.Config
	// Namespace holds the demo's ConfigMaps. Defaults to DefaultNamespace if empty.
	Namespace string

	// Outage and OutageEvery set the dependency's schedule before Speed
	// applies. Default to defaultOutage and defaultOutageEvery if zero.
	Outage, OutageEvery time.Duration

	// Out receives a few lines about the demo's progress (outages starting
	// and ending), never one per key. Defaults to io.Discard if nil.
	Out io.Writer
	// ErrOut receives errors of the controller machinery (not of reconciles:
	// those are the demo's subject and go to the endpoint). Defaults to
	// io.Discard if nil.
	ErrOut io.Writer
	// ControllerLog receives controller-runtime's own log of the controllers,
	// as a manager in production writes it: zap JSON at the default (info)
	// verbosity, one "Reconciler error" line per failed reconcile (never
	// sampled: controller-runtime's production logger would drop most lines
	// of a burst above 100 a second). It is what
	// `kubectl backoff --from-logs` reads, so the demo can stand in for a
	// controller without the instrument (the probes never log and never change
	// a decision: the lines are those the bare controllers would write). It
	// must take concurrent writes of whole lines. Defaults to none: the
	// errors are read on the endpoint.
	ControllerLog io.Writer
}

// DefaultOptions returns the options of `kubectl backoff demo` with no flags.
func DefaultOptions() Options {
	return Options{Keys: defaultKeys, Speed: 1, Listen: instrument.DefaultAddr}
}

// Validate checks the options; each error is an *OptionError naming the
// field at fault, or ErrKubeconfigAndInCluster, joined.
func (o *Options) Validate() error {
	var errs []error
	if o.Keys < 1 || o.Keys > MaxKeys {
		errs = append(errs, &OptionError{Field: "Keys", Value: strconv.Itoa(o.Keys), Err: fmt.Errorf("must be between 1 and %d", MaxKeys), OutOfRange: true})
	}
	if !(o.Jitter >= 0 && o.Jitter <= 1) { // also rejects NaN
		errs = append(errs, &OptionError{Field: "Jitter", Value: fmt.Sprint(o.Jitter), Err: errors.New("must be between 0 and 1 (0.25 is ±25%)"), OutOfRange: true})
	}
	if !(o.Speed > 0 && o.Speed <= maxSpeed) { // also rejects NaN
		errs = append(errs, &OptionError{Field: "Speed", Value: fmt.Sprint(o.Speed), Err: fmt.Errorf("must be greater than 0 and at most %d", maxSpeed), OutOfRange: true})
	}
	if o.Listen != "" {
		if err := validateListen(o.Listen); err != nil {
			errs = append(errs, &OptionError{Field: "Listen", Value: o.Listen, Err: err})
		}
	}
	if o.Kubeconfig != "" && o.InCluster {
		errs = append(errs, ErrKubeconfigAndInCluster)
	}
	if o.Outage < 0 || o.OutageEvery < 0 {
		errs = append(errs, fmt.Errorf("outage schedule must not be negative, got %v every %v", o.Outage, o.OutageEvery))
	}
	if o.Outage > 0 && o.OutageEvery > 0 && o.Outage >= o.OutageEvery {
		errs = append(errs, fmt.Errorf("outage %v must be shorter than its period %v", o.Outage, o.OutageEvery))
	}
	return errors.Join(errs...)
}

// validateListen accepts host:port with a numeric or named port, as
// net.Listen would, without binding it.
func validateListen(addr string) error {
	if _, _, err := net.SplitHostPort(addr); err != nil {
		return err
	}
	_, err := net.ResolveTCPAddr("tcp", addr)
	return err
}

// cluster reports whether the demo runs against a real API server.
func (o *Options) cluster() bool {
	return o.RESTConfig != nil || o.Kubeconfig != "" || o.InCluster
}

// withDefaults fills the fields whose zero value means "default".
func (o Options) withDefaults() Options {
	if o.Listen == "" {
		o.Listen = instrument.DefaultAddr
	}
	if o.Namespace == "" {
		o.Namespace = DefaultNamespace
	}
	if o.Outage == 0 {
		o.Outage = defaultOutage
	}
	if o.OutageEvery == 0 {
		o.OutageEvery = defaultOutageEvery
	}
	if o.Out == nil {
		o.Out = io.Discard
	}
	if o.ErrOut == nil {
		o.ErrOut = io.Discard
	}
	if o.Seed == 0 {
		o.Seed = time.Now().UnixNano()
	}
	return o
}

// scale divides a speed-1 duration by the speed, never below a microsecond
// (a zero delay would turn a backoff into a hot loop).
func (o *Options) scale(d time.Duration) time.Duration {
	return max(time.Duration(float64(d)/o.Speed), time.Microsecond)
}
