package logs

import "time"

// Stats says how much of a log a store has read.
type Stats struct {
	// Lines is every line read; Records those that were reconcile records.
	Lines, Records int
	Keys           int
	// First and Last are the times of the oldest and newest record.
	First, Last time.Time
	// Verbose is true when V(5) lines were seen: successes are in the log.
	Verbose bool
	// SampledAt is when the log first showed the signature of the sampler
	// of controller-runtime's production logger, which drops lines (see
	// api.ListSource.SampledAt); zero if never, or when Verbose.
	SampledAt time.Time
	// EndsAt is the time the store judges its keys at when that is the
	// log's last line rather than the clock (a saved log, or a dated one:
	// Options.DatedAfter), as api.ListSource.EndsAt; zero when live.
	EndsAt time.Time
}

// Stats returns what the store has read so far.
func (s *Store) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return Stats{Lines: int(s.lines.Load()), Records: s.records, Keys: len(s.keys), First: s.first, Last: s.last,
		Verbose: s.verbose, SampledAt: s.sampledAtLocked(), EndsAt: s.endsAtLocked()}
}
