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
	// failed names the endpoints that did not, each with its error.
	failed []error
}

// fanOut asks every endpoint at once with call and merges the answers in
// endpoint order: head reads each answer's clock and counts into the
// returned listHead, add takes the rest, given the endpoint's index. An
// endpoint that fails is left out and named in listHead.failed. The error
// is every failure when none answered (there is nothing to show but it);
// otherwise the failures, except in a cluster-wide session, where a pod out
// of reach is not a failure of the view but a name the caller shows, and a
// pod that does not run the controller asked for is not a failure at all.
func fanOut[L any](s *Session, controller string, call func(e *Endpoint) (L, error), head func(L) (at time.Time, total, matched int), add func(i int, l L)) (listHead, error) {
	answers := make([]L, len(s.endpoints))
	errs := make([]error, len(s.endpoints))
	s.each(func(i int, e *Endpoint) { answers[i], errs[i] = call(e) })
	var sum listHead
	var lacked []error
	for i, l := range answers {
		switch {
		case s.lacks(errs[i], controller):
			lacked = append(lacked, fmt.Errorf("%s: %w", s.endpoints[i].Name, errs[i]))
			continue
		case errs[i] != nil:
			sum.failed = append(sum.failed, fmt.Errorf("%s: %w", s.endpoints[i].Name, errs[i]))
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
	switch {
	case sum.answered == 0 && len(s.endpoints) > 0:
		return sum, errors.Join(append(lacked, sum.failed...)...)
	case s.clusterWide:
		return sum, nil
	}
	return sum, errors.Join(sum.failed...)
}
