package logs

import "time"

// kube-controller-manager's controllers log each sync's end at V(4) in a
// deferred call: "Finished syncing" key=KEY (replica_set.go:759),
// "Finished syncing deployment" deployment=KEY (deployment_controller.go
// :585), "Finished syncing job" key=KEY (job_controller.go:920) and their
// siblings. The line is written whatever the sync returned, and before
// processNextWorkItem sees the error: it then logs the failure
// (HandleError, or the controller's own line) and AddRateLimited's the
// key, or Forgets it on success (replica_set.go:613-641). So a sync's end
// is a success only when no failure line of its key and controller follows
// within attemptWindow: it is held until then (settleFinishedLocked drops
// it when that line comes; flushPendingLocked applies it once the window
// is past, or the log ends). At -v=2 none is logged, and successes stay
// unknown, as before.

// holdFinishedLocked holds r, a sync's end line read from line line.
func (s *Store) holdFinishedLocked(r *Record, line int) {
	s.finished = append(s.finished, pendingBare{r: *r, line: line})
}

// settleFinishedLocked is given r, a failure about to count: the last
// end held for r's key and controller within attemptWindow before it is
// the end of r's own attempt, not a success (dropped); the earlier ones of
// that key were successes before r, and are applied now, in the log's
// order, so that r comes after them.
func (s *Store) settleFinishedLocked(r *Record, line int) {
	if len(s.finished) == 0 {
		return
	}
	key := r.Key()
	own := s.ownFinished(r, key, true)
	if own < 0 {
		// Its end read under another controller's name (the sync's file
		// and the failure's call site named apart): a success shown for
		// a key failing is worse than a success missed.
		own = s.ownFinished(r, key, false)
	}
	var due []Record
	keep := s.finished[:0]
	for i, p := range s.finished {
		switch {
		case i == own:
			s.noteMerged(p.line, line)
			if r.Took == 0 {
				r.Took = p.r.Took // the failed sync's own duration (took.go)
			}
		case p.r.Controller == r.Controller && p.r.Key() == key:
			due = append(due, p.r)
		default:
			keep = append(keep, p)
		}
	}
	s.finished = keep
	for i := range due {
		s.applyLocked(&due[i])
	}
}

// ownFinished is the index of the last end held for key (of r's
// controller, when sameController) if it is within attemptWindow before r:
// r's attempt's; -1 if none is.
func (s *Store) ownFinished(r *Record, key string, sameController bool) int {
	for i := len(s.finished) - 1; i >= 0; i-- {
		p := &s.finished[i]
		if sameController && p.r.Controller != r.Controller || p.r.Key() != key {
			continue
		}
		if d := r.At.Sub(p.r.At); r.At.IsZero() || p.r.At.IsZero() || d >= 0 && d <= attemptWindow {
			return i
		}
		return -1
	}
	return -1
}

// flushFinishedLocked applies the held ends older than before by more
// than attemptWindow: no failure followed them, so they were successes. A
// zero before applies them all.
func (s *Store) flushFinishedLocked(before time.Time) {
	s.applyDueLocked(&s.finished, before)
}

// flushForViewLocked is flushPendingLocked for a reader asking in the
// middle of a live log: a sync's end within attemptWindow of the log's
// last line stays held, for its failure line may be in the next batch
// read. Applied now and that line then read, the success would have
// restarted the key's count under its failure.
func (s *Store) flushForViewLocked() {
	if !s.opts.Live || len(s.finished) == 0 || s.last.IsZero() {
		s.flushPendingLocked(time.Time{})
		return
	}
	s.flushFinishedLocked(s.last)
	s.flushBareLocked(time.Time{})
}
