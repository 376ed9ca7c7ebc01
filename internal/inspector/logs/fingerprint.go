package logs

import (
	"strings"
	"time"
)

// The rate limiter's fingerprint in a log, and a timed poll's: what
// evidence.go reads from one key's times in one template.
//
// The fingerprint is absent where the limiter's delay is not what spaces
// a key's attempts: controller-runtime of the v0.1 era returned false from
// reconcileHandler after an error, so its worker paused JitterPeriod (1s)
// before the next item, hiding delays under a second (5ms·2^n, n < 8) — a
// constant 1s, as a RequeueAfter: time.Second poll's (batch7 727, batch6
// 117); a limiter at its cap (argo-rollouts' 10s, batch6 100) leaves equal
// gaps too. Such logs are left unread: see testdata/batch7/README.md.

// growMin is how many gaps in a row must grow as a limiter's delays do: four
// attempts of one key in one template.
const growMin = 3

// equalMin is how many gaps in a row must be equal to read a timed poll.
const equalMin = 3

// joinGaps writes gaps as "5ms, 10ms, 20ms".
func joinGaps(gaps []time.Duration) string {
	s := make([]string, len(gaps))
	for i, g := range gaps {
		s[i] = g.Round(time.Millisecond).String()
	}
	return strings.Join(s, ", ")
}

// growingGaps finds, in one key's sorted times in one template, the
// limiter's fingerprint: growMin gaps in a row or more, each at least 1.5
// times the one before and fitting an exponential limiter's delays for
// consecutive counts (Limiter.fits: from 0.9 to twice the delay, and
// the reconcile's time), the last at least three times the first — give or
// take a second each where both stamps are whole seconds. It returns the
// run's gaps.
func growingGaps(ts []time.Time) ([]time.Duration, bool) {
	for i := 0; i+growMin < len(ts); i++ {
		for n := 1; n <= maxExponent; n++ {
			run := growingRun(ts[i:], n)
			if len(run) < growMin {
				continue
			}
			first, last := run[0], run[len(run)-1]
			c := coarseness(ts[i], ts[i+len(run)])
			if last > c && last+c >= 3*first {
				return run, true
			}
		}
	}
	return nil, false
}

// maxExponent is the count past which client-go's default delay is capped
// (5ms·2^18 > 1000s).
const maxExponent = 19

// growingRun is the run of gaps from ts[0] that grow and fit the default
// limiter's delays from a count of n.
func growingRun(ts []time.Time, n int) []time.Duration {
	var run []time.Duration
	for j := 1; j < len(ts); j++ {
		g, c := ts[j].Sub(ts[j-1]), coarseness(ts[j-1], ts[j])
		if !DefaultLimiter.fits(n+j-1, g, c) {
			break
		}
		if len(run) > 0 && 2*(g+c) < 3*run[len(run)-1] {
			break
		}
		run = append(run, g)
	}
	return run
}

// equalGaps finds a timed poll in one key's sorted times: equalMin gaps in
// a row or more, each within a tenth (or the stamps' second) of the run's
// first, of at least a second — shorter equal gaps are a token bucket's
// pace in an outage, or a burst. It returns the gap.
func equalGaps(ts []time.Time) (time.Duration, bool) {
	for i := 0; i+equalMin < len(ts); i++ {
		first := ts[i+1].Sub(ts[i])
		if first < time.Second {
			continue
		}
		n := 1
		for j := i + 2; j < len(ts); j++ {
			g, c := ts[j].Sub(ts[j-1]), coarseness(ts[j-1], ts[j])
			d := g - first
			if d < 0 {
				d = -d
			}
			if d > first/10+c {
				break
			}
			n++
		}
		if n >= equalMin {
			return first, true
		}
	}
	return 0, false
}
