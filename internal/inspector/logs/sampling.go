package logs

import (
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// errorRate watches the rate of "Reconciler error" lines for the point where
// controller-runtime's production logger starts to drop them: zap's sampler
// writes the first api.SampledLines lines of one message in each second,
// then 1 in 100. Past that point a key's failures are undercounted, so its
// estimated delay and retry time come out too early; the store says so
// rather than present them as they are.
type errorRate struct {
	// times is a ring of the last api.SampledLines error lines' times.
	times   [api.SampledLines]time.Time
	n       int
	reached time.Time
}

// add notes one error line at t (lines come in the log's order). The rate
// is reached when api.SampledLines lines fall within one second; a log with
// whole-second timestamps can only say "within two stamps a second apart",
// which may flag a rate somewhat under it: the note says "may".
func (e *errorRate) add(t time.Time) {
	i := e.n % len(e.times)
	e.times[i] = t
	e.n++
	if !e.reached.IsZero() || e.n < len(e.times) {
		return
	}
	// The next slot holds the oldest of the last api.SampledLines lines.
	if first := e.times[(i+1)%len(e.times)]; !t.Before(first) && t.Sub(first) <= time.Second {
		e.reached = first
	}
}
