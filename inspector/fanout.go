package inspector

import (
	"errors"
	"fmt"
	"time"
)

// listHead is what every list answer of the endpoint starts with, merged
// over the replicas that answered: their counts summed, the latest server
// clock (each replica's own).
type listHead struct {
	ServerTime     time.Time
	Total, Matched int
	// answered is how many endpoints answered.
	answered int
}

// fanOut asks every endpoint at once with call and merges the answers in
// endpoint order: head reads each answer's clock and counts into the
// returned listHead, add takes the rest, given the endpoint's index. An
// endpoint that fails is left out and named in the error; when none
// answered (answered == 0 and the error is not nil) there is nothing to
// show but the error.
func fanOut[L any](s *Session, call func(e *Endpoint) (L, error), head func(L) (at time.Time, total, matched int), add func(i int, l L)) (listHead, error) {
	answers := make([]L, len(s.endpoints))
	errs := make([]error, len(s.endpoints))
	s.each(func(i int, e *Endpoint) { answers[i], errs[i] = call(e) })
	var sum listHead
	var failed []error
	for i, l := range answers {
		if errs[i] != nil {
			failed = append(failed, fmt.Errorf("%s: %w", s.endpoints[i].Name, errs[i]))
			continue
		}
		at, total, matched := head(l)
		sum.answered++
		sum.Total += total
		sum.Matched += matched
		if at.After(sum.ServerTime) {
			sum.ServerTime = at
		}
		add(i, l)
	}
	return sum, errors.Join(failed...)
}
