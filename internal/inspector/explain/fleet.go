package explain

import (
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// FleetStats summarises many keys of a controller for the fleet-wide
// anti-patterns: hot loops and retry herds.
type FleetStats struct {
	// ShortRequeueAfter counts keys scheduled with a RequeueAfter under a second.
	ShortRequeueAfter int
	// HerdSize is the largest number of unpaced keys due within one second,
	// at HerdAt. Unpaced: a delay from the per-item exponential or a
	// RequeueAfter; the keys a token bucket or a spread released are paced
	// already, and herd with nothing.
	HerdSize int
	HerdAt   time.Time
}

// Fleet computes FleetStats over keys, counting only retries still to come at now.
func Fleet(keys []api.Key, now time.Time) FleetStats {
	var f FleetStats
	due := map[int64]int{}
	for _, k := range keys {
		if k.DelaySource == api.SourceRequeueAfter && k.Delay.Duration > 0 && k.Delay.Duration < time.Second {
			f.ShortRequeueAfter++
		}
		if k.NextRetryAt.IsZero() || !k.NextRetryAt.After(now) || !unpaced(k.DelaySource) {
			continue
		}
		sec := k.NextRetryAt.Unix()
		due[sec]++
		if n := due[sec]; n > f.HerdSize || (n == f.HerdSize && sec < f.HerdAt.Unix()) {
			f.HerdSize, f.HerdAt = n, time.Unix(sec, 0).UTC()
		}
	}
	return f
}

// unpaced reports whether a delay from this source is spread by nothing:
// keys that failed together, or asked for the same RequeueAfter together,
// come due together.
func unpaced(source string) bool {
	return source == api.SourceItemExponential || source == api.SourceItemFixed || source == api.SourceRequeueAfter || source == api.SourceStated
}
