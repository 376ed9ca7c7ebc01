package logs

import (
	"strings"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// This file is the store's one way in: a record read from a line (Add,
// and the batches of the parallel reader through add1Locked) applied to
// its key's entry and its controller.

// Add applies one record. A record whose time is unknown (zero At) counts,
// but moves no time: not the log's span, not the bucket, not the key's.
func (s *Store) Add(r Record) { s.add1(r, 0) }

// add1 is Add of the record read from the log's line line (0: not known).
// It returns r as applied: with the count a line before stated (statedLocked).
func (s *Store) add1(r Record, line int) Record {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.add1Locked(&r, line)
	return r
}

// add1Locked is add1, its lock held: flushHeld applies a batch under one.
// r is changed as add1 returns it, and then as applied (a Record is some
// 500 bytes: a batch of a million is not copied to each call).
func (s *Store) add1Locked(r *Record, line int) {
	if !r.At.IsZero() {
		s.flushPendingLocked(r.At)
	}
	if r.Finished {
		s.noteAttemptKeyLocked(*r) // it names its attempt's key too
	}
	switch {
	case r.What == CountLine:
		s.countLocked(*r)
		return
	case r.What == KeyLine:
		s.noteAttemptKeyLocked(*r)
		return
	case r.What == CauseLine:
		s.causeLocked(*r)
		return
	case r.What == LoopLine:
		return // no key's attempt (parse.go)
	case r.KeyFromAttempt && !s.attemptKeyLocked(r):
		return
	}
	s.siteControllerLocked(r)
	if s.echoLocked(r, line) {
		return
	}
	s.statedLocked(r)
	s.replicaControllerLocked(r)
	if r.Finished {
		s.holdFinishedLocked(r, line)
		return
	}
	if r.What == ErrorLine {
		s.settleFinishedLocked(r, line)
	}
	if !s.attemptLocked(r, line) {
		s.applyLocked(r)
	}
}

// applyLocked is Add, once a bare failure has waited (attempt.go). It
// may change r (an implausible time is zeroed).
func (s *Store) applyLocked(r *Record) {
	if s.applied != nil {
		s.applied(*r)
	}
	s.records++
	var ok bool
	if s.batchNow.IsZero() {
		ok = plausible(r.At, s.opts.Clock.Now())
	} else {
		ok = plausibleBy(r.At, s.batchLimit)
	}
	if !ok {
		r.At = time.Time{} // see times.go: Store.Read counts these
	}
	known := !r.At.IsZero()
	if known && (s.first.IsZero() || r.At.Before(s.first)) {
		s.first = r.At
	}
	if r.At.After(s.last) {
		s.last = r.At
		if s.opts.DatedAfter > 0 { // only a dated-able log reads the clock per line
			s.lastLag = s.opts.Clock.Now().Sub(r.At)
		}
	}
	if r.What != ErrorLine && r.What != ForgetLine || r.Verbose {
		// A V(5) line, or a family that logs its successes (Flux; Crossplane
		// at --debug); the forget line is logged at info.
		s.verbose = true
	}
	if r.What == ErrorLine && r.Sampled && known {
		s.rate.add(r.At)
	}
	if r.KnownOnly && s.keys[keyID{r.Controller, r.Key()}] == nil {
		return // a success of a key this log never showed failing: no key (DialectLine.KnownKeys)
	}
	c := s.lastControllerInfo
	if c == nil || s.lastController != r.Controller {
		if c = s.controllers[r.Controller]; c == nil {
			c = &controllerInfo{limiter: limiterGuess{sim: bucketSim{b: DefaultBucket}}}
			s.controllers[r.Controller] = c
		}
		s.lastController, s.lastControllerInfo = r.Controller, c
	}
	if r.Kind != "" {
		c.group, c.kind = r.Group, r.Kind
	}
	if !c.advised || r.Dialect != c.advisedFor || r.Sampled != c.advisedSampled {
		// The advice depends on these alone: read once per change.
		c.advised, c.advisedFor, c.advisedSampled = true, r.Dialect, r.Sampled
		c.advice, c.adviceOwn = successesAdvice(r, s.opts.Dialects)
	}
	if c.advice != "" {
		c.successesHow, c.successesOwn = c.advice, c.adviceOwn
	}
	if r.What == QueueLine {
		for _, it := range r.Items {
			s.queued(r.Controller, it, r.At)
		}
		return
	}
	if r.What == ForgetLine {
		s.forgotLocked(*r)
		return
	}
	if r.Limiter != (Limiter{}) {
		// Else the dialect is "FAMILY (FORMAT)": the family names the project.
		c.own, c.project = r.Limiter, r.LimiterOf
		if c.project == "" {
			c.project, _, _ = strings.Cut(r.Dialect, " (")
		}
		if !c.limiter.exponentialOnly {
			s.guessLocked(r.Controller, c, func(g *limiterGuess) { g.exponentialOnly = true })
		}
	}
	if r.ClientGoQueue && !c.limiter.clientGo {
		s.guessLocked(r.Controller, c, func(g *limiterGuess) { g.clientGo = true })
	}
	e, newest := s.recordEntryLocked(r)
	if known && r.At.Before(newest) {
		s.order.late++
		s.diag.ordered(s.order.outOfOrder, s.order.late, s.order.newestFirst)
		e.lateLocked(*r)
		return
	}
	e.unlogged = !s.verbose
	switch r.What {
	case ErrorLine:
		e.logLine, e.logEvidence, e.controllerWords = r.Line, r.Evidence, r.ControllerWords
		switch {
		case r.GaveUp:
			e.gaveUp(r, &s.classes)
		case r.Terminal:
			e.terminal(r, &s.classes)
		default:
			switch {
			case r.Retries > 0:
				// A stated count is the limiter's, a fact: the streak is as
				// long as it says, whatever the spacing, and the estimate
				// starts from it.
				e.failures = r.Retries - 1
			case !s.verbose:
				if known {
					s.calibrateLocked(c, e, r.At)
				}
				l := c.perItem(s.opts.Limiter)
				if confirmed := e.endInferred(r.At, l); e.freshRamp(r.At, l) || confirmed {
					s.streakNote = rampNote(e.firstFailure, e.failures+1)
				}
			}
			x := s.retryLocked(c, e, r)
			e.failed(r, x, c.limiter.bucket(), &s.classes)
		}
	case StartLine:
		e.start(r)
	case SuccessLine:
		e.settle(r, api.StateIdle, api.OutcomeSuccess, 0)
		if known {
			e.lastSuccess = r.At
		}
	case RequeueAfterLine:
		e.settle(r, api.StateScheduled, api.OutcomeRequeueAfter, r.RequeueAfter)
	case RequeueLine:
		e.requeue(r, s.retryLocked(c, e, r), c.limiter.bucket())
	}
}
