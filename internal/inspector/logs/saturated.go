package logs

import "time"

// A log read from the middle (tail -f, kubectl logs --tail, an excerpt)
// starts its bucket replay full, as a controller's starts; but joined
// during a mass failure, the real bucket is empty, its tokens reserved
// some Burst retries ahead, and the replay never sees it empty: failures
// at QPS a second take what QPS a second brings back. Each key then reads
// "1 failure, 5ms", unknown 2s later, and its retry 10s later a new
// streak; the bucket is never voted in (its predictions are the
// exponential's). A saved read of the whole log sees the burst and reads
// it right.
//
// The pace says what the replay missed: rate.Limiter hands out a token
// every 1/QPS once empty, so a key whose retry came Δ after its failure,
// with Δ·QPS failures of its controller logged in between (each took a
// token), waited for Δ·QPS reservations ahead of it: the bucket was
// Δ·QPS in debt, not as full as replayed. The replay is lowered by what it
// missed (calibrateLocked), and the retry votes for the bucket, as a retry
// the replay predicted does.

// paceTolerance is how far the failures logged between a key's failure
// and its retry may be from spacing·QPS and still be the bucket's pace.
const paceTolerance = 0.1

// calibrateLocked reads a failure at at of e, a key in backoff, for the
// signature of an empty bucket the replay missed; when it is there, the
// replay is lowered to it, e's last estimate and retry are what the bucket
// would have chosen, and the retry votes. It runs before endInferred, so
// that a retry the bucket delayed is not read as a new streak.
func (s *Store) calibrateLocked(c *controllerInfo, e *entry, at time.Time) {
	prev := e.est
	spacing := e.spacing(at)
	if spacing <= 0 || e.stated || prev.voted || c.limiter.exponentialOnly {
		return
	}
	predicted := max(prev.exp, prev.bucket)
	if spacing-predicted < voteMargin {
		return
	}
	sim := &c.limiter.sim
	n := float64(sim.n - prev.seq)
	want := spacing.Seconds() * sim.b.QPS
	if n < want*(1-paceTolerance) || n > want*(1+paceTolerance)+1 {
		return
	}
	// What the replay missed at e's failure, less what was taken off it
	// since (read from another key's retry).
	e.est.bucket, e.est.voted = spacing, true
	missed := (spacing-predicted).Seconds()*sim.b.QPS - (sim.lowered - prev.lowered)
	if missed >= voteMargin.Seconds()*sim.b.QPS {
		sim.tokens -= missed
		sim.lowered += missed
	}
	s.guessLocked(e.controller, c, func(g *limiterGuess) { g.vote(prev.exp, spacing, spacing) })
	e.reestimate(c.limiter.bucket())
}
