package logs

import (
	"fmt"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// Limiter is the per-item exponential the estimates assume:
// BaseDelay·2^(failures−1), capped at MaxDelay. A log does not say which
// limiter a controller runs; controller-runtime's default (the priority
// queue's, and one half of the classic queue's max-of limiter) and
// client-go's (the same half of DefaultControllerRateLimiter) is
// DefaultLimiter. The other half, the token bucket, is DefaultBucket, read
// from the log's pace (see limiterGuess).
type Limiter struct {
	BaseDelay, MaxDelay time.Duration
}

// DefaultLimiter is controller-runtime v0.25's and client-go v0.37's
// default per-item exponential: 5ms to 1000s.
var DefaultLimiter = Limiter{BaseDelay: api.DefaultBaseDelay, MaxDelay: api.DefaultMaxDelay}

// Delay is the delay the limiter chooses after the n-th consecutive failure
// (n ≥ 1), as client-go's ItemExponentialFailureRateLimiter computes it.
func (l Limiter) Delay(n int) time.Duration {
	if n < 1 {
		return 0
	}
	return api.ExponentialDelay(l.BaseDelay, l.MaxDelay, n-1)
}

// source is the delay source of the limiter's own delay: a base that is
// its cap never grows, a fixed interval (api.SourceItemFixed).
func (l Limiter) source() string {
	if l.BaseDelay > 0 && l.BaseDelay == l.MaxDelay {
		return api.SourceItemFixed
	}
	return api.SourceItemExponential
}

// estimate is what one failure says about the next retry: the delay each
// limiter would choose, and what the log itself shows.
type estimate struct {
	// exp is the per-item exponential's delay; bucket the replayed token
	// bucket's for this failure (0 when it had a token, or no time is known).
	exp, bucket time.Duration
	// spacing is the time since the key's previous failure of the streak:
	// a key failing every 10s keeps an expected spacing of 10s, whatever
	// limiter chose it.
	spacing time.Duration
	// steadyPairs counts the successive pairs of spacings, ending with
	// this one, that are one period (steady's test of two): onPeriod.
	steadyPairs int
	// longest is the streak's longest spacing so far, this one's included:
	// a period shorter than it is no limiter's (onPeriod).
	longest time.Duration
	// expected is the per-item exponential's delay the spacing was
	// expected to be (the previous failure's exp).
	expected time.Duration
	// source names the per-item limiter exp is from (Limiter.source).
	source string
	// seq is the bucket replay's count of reservations after this one's
	// (bucketSim.n); voted says the retry after it has voted already
	// (calibrateLocked).
	seq   int
	voted bool
	// lowered is the replay's bucketSim.lowered at this reservation.
	lowered float64
	// doubled is the delay of the controller's own exponential when the
	// key's gaps double (noteDoubling): twice the spacing (doubledDelay).
	doubled time.Duration
}

// onRamp says a failure's spacing was the per-item exponential's own delay
// below its cap (give or take a tenth, and the stamps' second when they
// have no fractions): the key was on its doubling ramp, so a next spacing
// as long is an event that came sooner than the doubled retry, not a
// period. 5.12s then 5s (whole seconds: 5s, 5s) is a ramp and an event.
func (x estimate) onRamp(l Limiter, coarse time.Duration) bool {
	if x.expected <= 0 || x.spacing <= 0 || x.expected >= l.MaxDelay {
		return false
	}
	diff := max(x.spacing, x.expected) - min(x.spacing, x.expected)
	return diff <= coarse+x.expected/10
}

// steady says two successive spacings of a key's failures are one period:
// within a tenth of each other, and at least spacingSlack (shorter ones
// are a worker's and a logger's jitter as much as a limiter's).
func steady(prev, cur time.Duration) bool {
	if prev < spacingSlack || cur < spacingSlack {
		return false
	}
	if prev%time.Second == 0 && cur%time.Second == 0 && min(prev, cur) < coarseSteady {
		// Whole seconds apart: stamps without fractions (logrus' text, a
		// log store's export), each spacing ±1s. 1.28s then 2.56s read
		// 1s then 1s, or 2s then 2s: a doubling that looks steady.
		return false
	}
	diff := max(prev, cur) - min(prev, cur)
	return 10*diff <= max(prev, cur)
}

// delay is the expected delay and the limiter component that chose it:
// the max of the assumed limiter's, as client-go's MaxOfRateLimiter takes
// it, and the key's own spacing, when that is over spacingSlack longer;
// but never over twice a steady spacing.
//
// Why the spacing bounds it from below: a retry runs its delay after the
// failure, plus a wait for a free worker, its reconcile and the logger
// (spacingSlack at most, assumed); so a spacing longer than the assumed
// limiter's delay by more than that was chosen by a longer delay, of a
// limiter the log does not name. client-go's per-item limiters never
// shorten a key's delay within its streak (ItemExponentialFailureRateLimiter
// doubles it, ItemFastSlowRateLimiter steps from fast to slow,
// MaxOfRateLimiter takes the max of them: workqueue/default_rate_limiters.go),
// so the next delay is at least as long: the estimate is never shorter
// than the key's own spacing less spacingSlack. Within spacingSlack, the
// assumed limiter's is the finer one (the spacing is its delay, late).
//
// Why a steady spacing bounds it from above: a key failing on a steady
// period is past its limiter's cap, or requeued on a timer; the assumed
// limiter's doubling, not seen in the log, would put its next retry far
// past when it comes (kube-controller-manager's namespace controller, its
// cap 1m, failing every 60s: 60s, not 5m27s).
func (x estimate) delay(withBucket bool) (time.Duration, string) {
	d, src := x.exp, x.source
	if src == "" {
		src = api.SourceItemExponential
	}
	if withBucket && x.bucket > d {
		d, src = x.bucket, api.SourceBucket
	}
	if x.spacing > d+spacingSlack {
		d, src = x.spacing, api.SourceSpacing
	}
	if x.onPeriod() && d > 2*x.spacing {
		d, src = x.spacing, api.SourceSpacing
	}
	if x.doubled > d {
		d, src = x.doubled, api.SourceDoubling
	}
	return d, src
}

// onPeriod says the key is retried on a fixed period (a capped limiter, a
// requeue a controller times itself), not on a doubling delay: its last
// three spacings are one, give or take a tenth. Two equal spacings are not
// enough: a key re-added by events (an object edited every minute or so,
// stamps of whole seconds) shows two alike by chance, and a period read
// from them would cut a capped 16m40s to a minute, then read every later
// event as a success not logged.
//
// Nor is a period shorter than a spacing the streak showed before it (more
// than a tenth and spacingSlack shorter, the longest): a per-item limiter
// never shortens a key's delay within its streak, and events only bring a
// retry sooner, so the delay is at least that longest spacing. The demo's
// naive keys, edited on a 3s ticker, fail 3s, 3s, 3s apart by chance soon
// after a gap of 15s; read as a 3s period, the next longer gap ended the
// streak ("the count restarted") while the queue's count went on.
func (x estimate) onPeriod() bool {
	return x.steadyPairs >= 2 && x.longest <= x.spacing+x.spacing/10+spacingSlack
}

// coarseSteady is the shortest spacing of whole seconds read as steady:
// from 3s on, a doubling (3s then 6s) cannot round to one period.
const coarseSteady = 3 * time.Second

// spacingSlack is how much later than its delay a retry may come and still
// be the assumed limiter's: a retry also waits for a free worker, its
// reconcile and the logger, and at millisecond delays that lateness is as
// long as the delay itself (a loaded machine retries a 20ms delay after
// 60ms). The limiters the spacing is there to catch (a token bucket's 10s,
// a project's own seconds to minutes) are far longer.
const spacingSlack = time.Second

// perItem is the per-item exponential the controller's estimates use: its
// project's own when the dialect knows it, else def (Options.Limiter).
func (c *controllerInfo) perItem(def Limiter) Limiter {
	if c.own != (Limiter{}) {
		return c.own
	}
	return def
}

// wire describes the limiter the estimates use for a controller, for
// v1/controllers: the per-item exponential of perItem, with the token
// bucket when limiterGuess reads one, and where each comes from: the
// project's own (known from its dialect), client-go's default for a
// client-go work queue, or an assumption.
func (c *controllerInfo) wire(def Limiter, now time.Time) api.Limiter {
	l := c.perItem(def)
	exp := api.LimiterComponent{
		Name:      l.source(),
		BaseDelay: metav1.Duration{Duration: l.BaseDelay},
		MaxDelay:  metav1.Duration{Duration: l.MaxDelay},
	}
	whose := "assumed: controller-runtime's default"
	if c.own != (Limiter{}) {
		whose = c.project + "'s own for this controller, known from its log lines"
	}
	g := &c.limiter
	if !g.bucket() {
		desc := fmt.Sprintf("item-exponential %v..%v", l.BaseDelay, l.MaxDelay)
		if l.source() == api.SourceItemFixed {
			desc = fmt.Sprintf("fixed %v (every retry after %v, not growing)", l.BaseDelay, l.BaseDelay)
		}
		return api.Limiter{
			Description: fmt.Sprintf("%s (%s; estimated from logs)", desc, whose),
			Components:  []api.LimiterComponent{exp},
		}
	}
	// A queue whose workers fail one key per 1/QPS (one worker, a 100ms
	// dial timeout) logs the pace a bucket in debt would, with the same
	// retries, under a per-item exponential alone: the log cannot tell
	// the two apart (TestPaceOfAnExponentialIsNoBucket), so it is said.
	why := "assumed: the log's failures come at the bucket's pace, so the token bucket is deciding (controller-runtime's classic queue), or the workers are, failing a key each 1/QPS under a per-item limiter alone: a log cannot tell the two apart"
	switch {
	case g.clientGo:
		why = "assumed: client-go's DefaultControllerRateLimiter, a client-go work queue's default"
	case c.own != (Limiter{}):
		why = whose + "; the log's failures come at a token bucket's pace, so a bucket is deciding"
	}
	tokens := g.sim.tokensAt(now)
	return api.Limiter{
		Description: fmt.Sprintf("max of item-exponential %v..%v and bucket %g qps, burst %d (%s; estimated from logs)",
			l.BaseDelay, l.MaxDelay, g.sim.b.QPS, g.sim.b.Burst, why),
		Components: []api.LimiterComponent{exp, {Name: api.SourceBucket, QPS: g.sim.b.QPS, Burst: g.sim.b.Burst, Tokens: &tokens, Estimated: true}},
	}
}

// retryLocked reads what a failure (or Requeue: true) of e logged by r
// says of its retry. It goes through the controller's limiter: a token
// from its bucket, whichever limiter runs; and, when it is e's retry, a
// vote on which limiter that is (which may re-read the controller's keys).
func (s *Store) retryLocked(c *controllerInfo, e *entry, r *Record) estimate {
	l := c.perItem(s.opts.Limiter)
	x := estimate{exp: l.Delay(e.failures + 1), spacing: e.spacing(r.At), expected: e.est.exp, source: l.source()}
	x.longest = max(e.est.longest, x.spacing)
	if r.Waited > 0 && l.source() == api.SourceItemExponential {
		// The line states the limiter's previous delay: the next is
		// its next step, whatever failures came before the log.
		x.exp, x.source = l.afterWaited(r.Waited), api.SourceWaited
	}
	if steady(e.est.spacing, x.spacing) && !e.est.onRamp(l, coarseness(e.failAt, r.At)) {
		x.steadyPairs = e.est.steadyPairs + 1
	}
	if e.doubling > 0 && e.lastFailAt.Equal(r.At) && x.spacing > 0 {
		x.doubled = doubledDelay(x.spacing, coarseness(e.failAt, r.At), l)
	}
	if r.At.IsZero() || r.RetryIn > 0 {
		return x // no time to replay; or a RequeueAfter, which takes no token
	}
	if prev := e.est; x.spacing > 0 && !e.stated && !prev.voted {
		s.guessLocked(r.Controller, c, func(g *limiterGuess) { g.vote(prev.exp, max(prev.exp, prev.bucket), x.spacing) })
	}
	x.bucket = c.limiter.sim.reserve(r.At)
	x.seq, x.lowered = c.limiter.sim.n, c.limiter.sim.lowered
	return x
}

// guessLocked changes what is known of a controller's limiter; when that
// turns the bucket on or off, its waiting keys' retries are read anew.
func (s *Store) guessLocked(controller string, c *controllerInfo, change func(*limiterGuess)) {
	was := c.limiter.bucket()
	change(&c.limiter)
	if now := c.limiter.bucket(); now != was {
		for _, e := range s.keys {
			if e.controller == controller {
				e.reestimate(now)
			}
		}
	}
}
