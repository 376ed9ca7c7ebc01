package instrument

import (
	"net/http"
	"time"

	"github.com/go-logr/logr"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/query"
	"k8s.io/utils/clock"
	ctrllog "sigs.k8s.io/controller-runtime/pkg/log"
)

// DefaultPrefix is where the endpoint is mounted unless HandlerOptions say
// otherwise: the wire API's prefix, repeated here so that mounting the handler
// needs only this package.
const DefaultPrefix = api.DefaultPrefix

// HandlerOptions configures the endpoint. Every field is optional.
type HandlerOptions struct {
	// Registry is the set of controllers served. Defaults to DefaultRegistry if unset.
	Registry *Registry
	// Prefix is the path the handler is mounted under. Defaults to DefaultPrefix.
	Prefix string
	// ReadOnly refuses v1/forget with 403.
	ReadOnly bool
	// Logger receives one line per forget, naming what was reset. Defaults to
	// controller-runtime's logger, named "backoff", if unset.
	Logger *logr.Logger
	// AllowedHosts lists the host names (a port is ignored) requests may be
	// addressed to besides loopback addresses, localhost and the address the
	// request came in on: e.g. the Service name of the metrics server. "*"
	// allows any, giving up the DNS-rebinding guard. Defaults to none.
	AllowedHosts []string
	// MaxConcurrentLists bounds the v1/keys, v1/errors and v1/controllers
	// computations that run at once. Defaults to DefaultMaxConcurrentLists.
	MaxConcurrentLists int
	// AdmissionWait is how long a list request waits for a free computation
	// before it is answered 429 with Retry-After. Defaults to DefaultAdmissionWait.
	AdmissionWait time.Duration
	// Reuse is how long a computed list answers identical requests (each
	// answer says its age). Defaults to DefaultReuse if zero; negative turns
	// reuse off (identical concurrent requests still share one computation).
	Reuse time.Duration
	// MaxRequestsPerSecond bounds the reads (GET) served each second, so
	// that readers in a loop cannot take the controller's CPU: reads
	// together take at most a fifth of a core. More wait as long as a slot
	// can rest (a second), so that one reader paging through never sees a
	// 429, and are then answered 429. Forget is not paced. Defaults to
	// DefaultMaxRequestsPerSecond if zero; negative turns pacing off.
	MaxRequestsPerSecond int
	// WatchTick is how often a watched page (v1/keys?watch=true) is
	// computed again, once for all who watch the same query. Defaults to
	// DefaultWatchTick.
	WatchTick time.Duration
	// MaxWatches bounds the watches open at once (more are answered 429).
	// Defaults to DefaultMaxWatches.
	MaxWatches int
	// Clock ticks the watches. Defaults to the real clock; tests step a
	// fake one.
	Clock clock.WithTicker
}

// Admission and pacing defaults (see HandlerOptions), the query engine's.
const (
	DefaultMaxConcurrentLists   = query.DefaultMaxConcurrentLists
	DefaultAdmissionWait        = query.DefaultAdmissionWait
	DefaultReuse                = query.DefaultReuse
	DefaultMaxRequestsPerSecond = query.DefaultMaxRequestsPerSecond
	DefaultWatchTick            = query.DefaultWatchTick
	DefaultMaxWatches           = query.DefaultMaxWatches
)

// Handler serves DefaultRegistry under DefaultPrefix, forget allowed:
//
//	mgr.AddMetricsServerExtraHandler(instrument.DefaultPrefix, instrument.Handler())
func Handler() http.Handler { return NewHandler(HandlerOptions{}) }

// NewHandler returns the v1 endpoint for opts: the query engine's one
// handler (instrument/api/query) over the registry's controllers, which
// is also what serves a log or a snapshot; forget is this package's alone.
func NewHandler(opts HandlerOptions) http.Handler {
	if opts.Registry == nil {
		opts.Registry = DefaultRegistry
	}
	log := ctrllog.Log.WithName("backoff")
	if opts.Logger != nil {
		log = *opts.Logger
	}
	src := registrySource{opts.Registry}
	qo := query.Options{
		Prefix:               opts.Prefix,
		States:               api.States,
		ReadOnly:             opts.ReadOnly,
		AllowedHosts:         opts.AllowedHosts,
		MaxConcurrentLists:   opts.MaxConcurrentLists,
		AdmissionWait:        opts.AdmissionWait,
		Reuse:                opts.Reuse,
		MaxRequestsPerSecond: opts.MaxRequestsPerSecond,
		WatchTick:            opts.WatchTick,
		MaxWatches:           opts.MaxWatches,
		Clock:                opts.Clock,
	}
	if !opts.ReadOnly {
		qo.Forget = (&forgetter{reg: opts.Registry, log: log}).serve
	}
	return query.NewHandler(src, qo)
}
