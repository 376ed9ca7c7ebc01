package fleet

import (
	"context"
	"errors"
	"math"
	"slices"
	"sync"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// Fleet is one read: every controller the server has series of.
type Fleet struct {
	// At is the evaluation time of every query of the read.
	At time.Time `json:"evaluatedAt"`
	// Server is the server read, credentials left out.
	Server string `json:"server"`
	// ClusterLabel is the label that named each row's cluster.
	ClusterLabel string `json:"clusterLabel"`
	// Clusters are the clusters that answered: those with a series.
	Clusters []string `json:"clusters"`
	// Rows are the controllers, worst first.
	Rows []Row `json:"controllers"`
	// Warnings are the server's own (a Thanos store that did not answer):
	// the rows may be missing some clusters.
	Warnings []string `json:"warnings,omitempty"`
	// Queries is how many queries the read sent.
	Queries int `json:"queries"`
	// ClusterFrom says where the rows' cluster came from when no series
	// had ClusterLabel: ClusterFromExternalLabels, the server's own
	// global.external_labels, which a Prometheus does not add to its own
	// answers. Empty: from the series' label.
	ClusterFrom string `json:"clusterFrom,omitempty"`
}

// Row is one controller of one cluster.
type Row struct {
	Cluster    string `json:"cluster"`
	Namespace  string `json:"namespace"`
	Controller string `json:"controller"`
	// Keys counts the keys by state (every state the probe reports).
	Keys map[api.State]int `json:"keys"`
	// OldestFailureSeconds is the age of the oldest unresolved failure (0:
	// nothing failing).
	OldestFailureSeconds float64 `json:"oldestFailureSeconds"`
	// MaxFailures is the deepest failure streak of any key.
	MaxFailures int `json:"maxFailures"`
	// KeysAtCap counts the keys retrying at the limiter's maximum delay;
	// nil when the probe cannot know the cap (a custom limiter).
	KeysAtCap *int `json:"keysAtCap,omitempty"`
	// ForgetsLastDay is how many keys had their backoff reset by hand in
	// the last 24 hours (Prometheus' increase: an estimate).
	ForgetsLastDay int `json:"forgetsLastDay"`
	// WorstKeys are the controller's worst keys when its probe exports
	// them (Options.WorstKeys), most failures first.
	WorstKeys []WorstKey `json:"worstKeys,omitempty"`
	// RetryDelays are the delays the controller's rate limiter chose in
	// the last hour (kubectl_backoff_rate_limiter_delay_seconds); nil when
	// it delayed nothing.
	RetryDelays *RetryDelays `json:"retryDelays,omitempty"`
}

// RetryDelays summarises a controller's rate limiter delays of the last
// hour, as Prometheus estimates them from the histogram (increase():
// extrapolated, so a count may be off by a fraction).
type RetryDelays struct {
	// Retries counts the delays: failures retried with backoff.
	Retries int `json:"retriesLastHour"`
	// MeanSeconds is their mean.
	MeanSeconds float64 `json:"meanSeconds"`
	// Long counts those over LongDelayBound seconds (10m55s, the bucket
	// under client-go's 1000s cap): keys deep into their backoff.
	Long int `json:"longRetriesLastHour"`
}

// WorstKey is one of a controller's worst keys.
type WorstKey struct {
	Key      string    `json:"key"`
	State    api.State `json:"state"`
	Failures int       `json:"failures"`
	// RetryInSeconds is the time to the next retry at the scrape (0: none
	// pending).
	RetryInSeconds float64 `json:"retryInSeconds"`
}

// Failing counts the keys backing off or failed.
func (r *Row) Failing() int { return r.Keys[api.StateBackoff] + r.Keys[api.StateFailed] }

// Total counts the keys.
func (r *Row) Total() int {
	n := 0
	for _, v := range r.Keys {
		n += v
	}
	return n
}

// ID is the row's cluster/namespace/controller.
func (r *Row) ID() string { return r.Cluster + "/" + r.Namespace + "/" + r.Controller }

// Options are what a read asks.
type Options struct {
	// ClusterLabel is the label that names a cluster. Defaults to
	// "cluster" if unset.
	ClusterLabel string
	// At is the evaluation time. Defaults to now if unset.
	At time.Time
}

// Read sends the panels' queries (Queries), at once and at one evaluation
// time, and folds them into rows, worst first. Any query failing fails the
// read, with the server's message: a view keeps its last read instead.
func Read(ctx context.Context, c *Client, opts Options) (*Fleet, error) {
	if opts.ClusterLabel == "" {
		opts.ClusterLabel = "cluster"
	}
	if opts.At.IsZero() {
		opts.At = time.Now()
	}
	at := opts.At.Truncate(time.Millisecond)
	panels := Queries(opts.ClusterLabel)
	results := make([]*Result, len(panels))
	errs := make([]error, len(panels))
	var wg sync.WaitGroup
	for i, p := range panels {
		wg.Go(func() { results[i], errs[i] = c.Query(ctx, p.Query, at) })
	}
	wg.Wait()
	if err := distinct(errs); err != nil {
		return nil, err
	}
	f := &Fleet{At: at, Server: c.Server(), ClusterLabel: opts.ClusterLabel, Queries: len(panels)}
	rows := map[string]*Row{}
	row := func(l map[string]string) *Row {
		r := Row{Cluster: l[opts.ClusterLabel], Namespace: l["namespace"], Controller: l["controller"]}
		if got, ok := rows[r.ID()]; ok {
			return got
		}
		r.Keys = map[api.State]int{}
		for _, st := range api.States {
			r.Keys[st] = 0
		}
		rows[r.ID()] = &r
		return &r
	}
	for _, s := range results[0].Samples {
		r := row(s.Labels)
		switch s.Labels[columnLabel] {
		case colKeys:
			r.Keys[api.State(s.Labels["state"])] = count(s.Value)
		case colOldest:
			r.OldestFailureSeconds = s.Value
		case colMaxFailures:
			r.MaxFailures = count(s.Value)
		case colAtCap:
			n := count(s.Value)
			r.KeysAtCap = &n
		case colForgets:
			r.ForgetsLastDay = count(s.Value)
		}
	}
	foldWorst(results[1].Samples, rows, opts.ClusterLabel)
	foldDelays(results[2].Samples, rows, opts.ClusterLabel)
	if clusterFromServer(ctx, c, opts.ClusterLabel, rows) {
		f.ClusterFrom = ClusterFromExternalLabels
	}
	for _, res := range results {
		f.Warnings = append(f.Warnings, res.Warnings...)
	}
	clusters := map[string]bool{}
	for _, r := range rows {
		f.Rows = append(f.Rows, *r)
		clusters[r.Cluster] = true
	}
	for c := range clusters {
		f.Clusters = append(f.Clusters, c)
	}
	slices.Sort(f.Clusters)
	Sort(f.Rows, SortWorst)
	return f, nil
}

// distinct joins the panels' errors, each message once: both queries go
// to one server, which is most often down for both alike.
func distinct(errs []error) error {
	var out []error
	seen := map[string]bool{}
	for _, err := range errs {
		if err != nil && !seen[err.Error()] {
			seen[err.Error()] = true
			out = append(out, err)
		}
	}
	return errors.Join(out...)
}

// foldWorst puts each worst-key sample under its controller's row; a key
// of a controller without a row (its table series not scraped yet) is
// left out.
func foldWorst(samples []Sample, rows map[string]*Row, clusterLabel string) {
	type id struct{ row, key, state string }
	at := map[id]int{}
	for _, s := range samples {
		l := s.Labels
		r, ok := rows[(&Row{Cluster: l[clusterLabel], Namespace: l["namespace"], Controller: l["controller"]}).ID()]
		if !ok {
			continue
		}
		k := id{r.ID(), l["key"], l["state"]}
		i, seen := at[k]
		if !seen {
			i = len(r.WorstKeys)
			at[k] = i
			r.WorstKeys = append(r.WorstKeys, WorstKey{Key: l["key"], State: api.State(l["state"])})
		}
		switch l[columnLabel] {
		case colFailures:
			r.WorstKeys[i].Failures = count(s.Value)
		case colRetry:
			r.WorstKeys[i].RetryInSeconds = s.Value
		}
	}
	for _, r := range rows {
		slices.SortFunc(r.WorstKeys, func(a, b WorstKey) int {
			if a.Failures != b.Failures {
				return b.Failures - a.Failures
			}
			return compareStrings(a.Key, b.Key)
		})
	}
}

// foldDelays puts each controller's delay figures on its row; those of a
// controller without a row are left out, as foldWorst's. The panel sends
// the count, the sum and the count under LongDelayBound (each left out
// when 0); the mean and the long ones are computed here.
func foldDelays(samples []Sample, rows map[string]*Row, clusterLabel string) {
	type figures struct{ retries, sum, short float64 }
	got := map[*Row]*figures{}
	for _, s := range samples {
		l := s.Labels
		r, ok := rows[(&Row{Cluster: l[clusterLabel], Namespace: l["namespace"], Controller: l["controller"]}).ID()]
		if !ok || math.IsNaN(s.Value) || math.IsInf(s.Value, 0) {
			continue
		}
		f := got[r]
		if f == nil {
			f = &figures{}
		}
		switch l[columnLabel] {
		case colDelays:
			f.retries = s.Value
		case colDelaySum:
			f.sum = s.Value
		case colShortDelays:
			f.short = s.Value
		default:
			continue
		}
		got[r] = f
	}
	for r, f := range got {
		if f.retries <= 0 {
			continue // a sum without a count: a scrape between the two
		}
		r.RetryDelays = &RetryDelays{Retries: count(f.retries), MeanSeconds: f.sum / f.retries, Long: max(0, count(f.retries-f.short))}
	}
}

// count is a gauge's value as a count: Prometheus' increase extrapolates,
// and a NaN (a counter reset mid-window) counts nothing.
func count(v float64) int {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0
	}
	return int(math.Round(v))
}
