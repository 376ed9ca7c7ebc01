package logs

// A handler's line whose time is unknown (logrus' seconds since start, a
// line dated after the reading clock: times.go) and the bare line of the
// same key just before it are one attempt, told by their order alone:
// virtual-kubelet's status queue logs "Error processing pod status update"
// (E, error=) and then "requeuing KEY due to failed sync" (W, the same
// error=) for each attempt (batch16/1600, read untimed). So an untimed bare
// failure is held until the next failure line: the handler's line of its
// key with its error takes its place; any other line (another key, the next
// bare attempt, an unrelated error, a success, a named dialect's line)
// applies it first, in the log's order.

// untimedLocked is attemptLocked for r, a generic failure whose time is
// unknown, of key; it says whether r was held.
func (s *Store) untimedLocked(r *Record, key string, line int) bool {
	if n := len(s.pending); n > 0 {
		p := s.pending[n-1]
		if !r.Bare && p.r.Key() == key && (p.warning || !p.r.At.IsZero() || oneCause(p.r.Error, r.Error)) {
			s.noteMerged(p.line, line)
			s.pending = s.pending[:n-1]
			return false
		}
		s.flushUntimedLocked()
	}
	if !r.Bare {
		return false
	}
	s.pending = append(s.pending, pendingBare{r: *r, line: line})
	return true
}

// flushUntimedLocked applies the untimed bare failure held for the next
// failure line (untimedLocked holds at most one, last in s.pending).
func (s *Store) flushUntimedLocked() {
	if n := len(s.pending); n > 0 && s.pending[n-1].r.At.IsZero() && !s.pending[n-1].warning {
		p := s.pending[n-1]
		s.pending = s.pending[:n-1]
		s.applyLocked(&p.r)
	}
}
