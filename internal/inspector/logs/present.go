package logs

import (
	"cmp"
	"time"
)

// A log's present: the clock's time for a live log, its newest line's for
// a saved or dated one (Options.Live, Options.DatedAfter); every age,
// countdown and state is judged at it.

// liveLocked says the log is judged at the clock: Options.Live, unless its
// newest line was already older than Options.DatedAfter when read.
func (s *Store) liveLocked() bool {
	return s.opts.Live && !s.asSaved && (s.opts.DatedAfter <= 0 || s.last.IsZero() || s.lastLag <= s.opts.DatedAfter)
}

// nowLocked is the store's present: the clock for a live log (never before
// its newest line, whatever the skew between the pod's clock and ours),
// else the newest line (the clock when no line had a readable time).
func (s *Store) nowLocked() time.Time {
	if end := s.endsAtLocked(); !end.IsZero() {
		return end
	}
	return latest(s.opts.Clock.Now(), s.last)
}

// endsAtLocked is the newest line when the store's present is that line
// (a saved or dated log: liveLocked), so that a client says what its times
// are judged at; zero for a live log, or one with no readable time.
// nowLocked is this when set, so the two cannot disagree.
func (s *Store) endsAtLocked() time.Time {
	if s.liveLocked() {
		return time.Time{}
	}
	return s.last
}

// GoLive makes a store that read a saved log (Options.Live false) read on
// as a live one: a file read to its end as saved (in time order, on
// Options.Workers goroutines), then followed as it grows (Tail). Its
// present is then the clock's, unless its newest line was older than
// Options.DatedAfter when read: then that line's, until a newer one
// arrives. Call it between two reads, from the goroutine that read.
func (s *Store) GoLive() {
	s.mu.Lock()
	s.opts.Live = true
	s.mu.Unlock()
}

// ReadOnAsSaved makes a store that read a saved log read on as it grows
// (Tail) as a live one reads — each line applied as it comes, not held to
// the end of the read — while its present stays its newest line's, as a
// saved log's: a file judged as `why --from-logs FILE` judges it, kept up
// to date without reading it again. Call it between two reads, from the
// goroutine that read.
func (s *Store) ReadOnAsSaved() {
	s.mu.Lock()
	s.opts.Live, s.asSaved = true, true
	s.mu.Unlock()
}

func latest(a, b time.Time) time.Time {
	if cmp.Compare(a.UnixNano(), b.UnixNano()) >= 0 {
		return a
	}
	return b
}
