package query

import (
	"context"
	"sync/atomic"
	"time"
)

// Request pacing defaults (see Options.MaxRequestsPerSecond).
const (
	// DefaultMaxRequestsPerSecond bounds the reads the endpoint serves each
	// second, whoever sends them: ten people running top refresh about 30
	// times a second between them; a reader in a tight loop gets 429s.
	DefaultMaxRequestsPerSecond = 200
	// pacerSlots is how many reads are served at once.
	pacerSlots = 2
	// pacerDuty keeps a slot after a read for pacerDuty times as long as the
	// read took (when that is longer than the spacing): reads together then
	// take at most pacerSlots/(pacerDuty+1) of a core, a fifth, however
	// costly each is. This is the endpoint's lower priority: Go has none.
	pacerDuty = 9
	// maxPacerRest bounds that rest, so one slow read cannot close a slot.
	maxPacerRest = time.Second
)

// pacer spaces the endpoint's reads so that readers cannot take the
// controller's CPU: a read holds one of a few slots while it is served and
// for a rest after — the spacing that keeps the slots under a rate of
// reads, or pacerDuty times what the read took, whichever is longer. A read that finds every slot taken waits — a blocked goroutine,
// not a spinning one — up to wait, and is then refused with 429. Readers in
// a tight loop are slowed to that rate instead of getting whatever CPU the
// controller leaves. Forget is not paced: in an incident it must get through.
type pacer struct {
	slots     chan struct{}
	spacing   time.Duration
	wait      time.Duration
	perSecond int
	// dutyRests counts the slots resting now for their read's cost (the
	// duty cycle) rather than for the rate: what a 429 says decided.
	dutyRests atomic.Int32
	// since is time.Since; a test fixes what a read took.
	since func(time.Time) time.Duration
}

func newPacer(perSecond int, wait time.Duration) *pacer {
	return &pacer{
		slots:     make(chan struct{}, pacerSlots),
		spacing:   time.Second * pacerSlots / time.Duration(perSecond),
		wait:      wait,
		perSecond: perSecond,
		since:     time.Since,
	}
}

// enter takes a slot, waiting at most p.wait, and returns the function that
// gives it back once the spacing has passed since the read began.
func (p *pacer) enter(ctx context.Context) (func(), error) {
	select {
	case p.slots <- struct{}{}:
	default:
		timer := time.NewTimer(p.wait)
		defer timer.Stop()
		select {
		case p.slots <- struct{}{}:
		case <-timer.C:
			// A rest is at most maxPacerRest: a slot is free again by then.
			retry := maxPacerRest
			secs := int((retry + time.Second - 1) / time.Second)
			if p.dutyRests.Load() > 0 {
				// Any client reads this: it names the query's parameters,
				// and a client says its own flags for them.
				return nil, Busy(retry, "reads limited to a fifth of a core while the controller is busy; retry in %d s (narrow the query by its controller, state or q parameter to make each read cheaper)", secs)
			}
			return nil, Busy(retry, "the endpoint is serving %d reads a second already; retry in %d s", p.perSecond, secs)
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	began := time.Now()
	return func() {
		took := p.since(began)
		if rest := min(max(p.spacing-took, took*pacerDuty), maxPacerRest); rest > 0 {
			duty := took*pacerDuty > p.spacing-took
			if duty {
				p.dutyRests.Add(1)
			}
			time.AfterFunc(rest, func() {
				if duty {
					p.dutyRests.Add(-1)
				}
				<-p.slots
			})
			return
		}
		<-p.slots
	}, nil
}
