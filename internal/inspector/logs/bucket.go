package logs

import (
	"time"
)

// Bucket is a token bucket as client-go's BucketRateLimiter runs one: every
// When takes a token, QPS tokens come back a second, at most Burst are
// held, and a When that finds none waits for the one it reserved.
type Bucket struct {
	QPS   float64
	Burst int
}

// DefaultBucket is the bucket of client-go's DefaultControllerRateLimiter
// (util/workqueue/default_rate_limiters.go: rate.NewLimiter(10, 100)), the
// limiter of a bare client-go work queue and of controller-runtime's classic
// queue, where it is max-ed with DefaultLimiter.
var DefaultBucket = Bucket{QPS: 10, Burst: 100}

// voteMargin is how far apart the two limiters' predictions for a retry
// must be before the retry's real time says which one runs: the default
// encoders stamp whole seconds.
const voteMargin = 2 * time.Second

// minVotes is how many retries must side with the bucket before a
// controller-runtime controller is read as running one.
const minVotes = 3

// bucketSim replays a controller's token bucket over its logged failures,
// as golang.org/x/time/rate's Reserve computes it: each failure is one
// When, so the delay the bucket chose for it is known from the log alone.
type bucketSim struct {
	b       Bucket
	tokens  float64
	last    time.Time
	started bool
	// n counts the reservations: how many failures took a token
	// (calibrateLocked reads the pace from it).
	n int
	// lowered is how many tokens calibrateLocked has taken off the
	// replay in all, so that a debt read from two keys is not taken twice.
	lowered float64
}

// advance refills the bucket up to at; lines out of order refill nothing.
func (s *bucketSim) advance(at time.Time) {
	if !s.started {
		s.tokens, s.last, s.started = float64(s.b.Burst), at, true
		return
	}
	if at.After(s.last) {
		s.tokens = min(float64(s.b.Burst), s.tokens+at.Sub(s.last).Seconds()*s.b.QPS)
		s.last = at
	}
}

// reserve takes a token for a failure at at and returns the bucket's delay.
func (s *bucketSim) reserve(at time.Time) time.Duration {
	s.advance(at)
	s.n++
	s.tokens--
	if s.tokens >= 0 {
		return 0
	}
	return time.Duration(-s.tokens / s.b.QPS * float64(time.Second))
}

// tokensAt is the bucket's tokens at now (negative: retries reserved ahead),
// read without taking one.
func (s *bucketSim) tokensAt(now time.Time) float64 {
	if !s.started {
		return float64(s.b.Burst)
	}
	t := s.tokens
	if now.After(s.last) {
		t = min(float64(s.b.Burst), t+now.Sub(s.last).Seconds()*s.b.QPS)
	}
	return t
}

// limiterGuess decides, per controller, which limiter the log shows: a log
// does not say whether controller-runtime runs its priority queue (per-item
// exponential only) or its classic queue (the max of that and DefaultBucket).
// Each retry votes: when the two predictions for it differ, the one nearer
// its real time wins. In a mass failure on the classic queue the retries
// come at the bucket's pace (~QPS a second after a burst of Burst), not at
// 5ms·2^n: the token bucket is deciding.
type limiterGuess struct {
	sim                   bucketSim
	bucketVotes, expVotes int
	// clientGo: a line came from a bare client-go work queue, whose default
	// limiter is client-go's DefaultControllerRateLimiter: no vote needed.
	clientGo bool
	// exponentialOnly: the controller's project sets its whole limiter, a
	// per-item exponential with no bucket (cert-manager's, Record.Limiter):
	// no vote can turn a bucket on that the controller does not have.
	exponentialOnly bool
	// voted is the votes' verdict. It turns only on a two-to-one majority,
	// so that votes about even cannot flip it (and re-read every key) on
	// each retry: a flip needs the other side's votes to more than double.
	voted bool
}

// bucket reports whether the controller's delays are read as max(exponential, bucket).
func (g *limiterGuess) bucket() bool { return !g.exponentialOnly && (g.clientGo || g.voted) }

// vote weighs one retry that came observed after the failure before it,
// for which the exponential predicted exp and the max with the bucket
// predicted withBucket (never less than exp).
func (g *limiterGuess) vote(exp, withBucket, observed time.Duration) {
	if withBucket-exp < voteMargin {
		return
	}
	if (observed - withBucket).Abs() < (observed - exp).Abs() {
		g.bucketVotes++
	} else {
		g.expVotes++
	}
	switch {
	case !g.voted && g.bucketVotes >= minVotes && g.bucketVotes > 2*g.expVotes:
		g.voted = true
	case g.voted && g.expVotes > 2*g.bucketVotes:
		g.voted = false
	}
}
