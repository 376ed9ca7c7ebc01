package logs

import "time"

// requeueAfter is the RequeueAfter a line states as the time it ends (the
// managed reconciler's "requeue-after": time.Now().Add(reconcileAfter), in
// the encoder's time format: an epoch float or an ISO 8601 string), from
// the line's time at. Rounded to the millisecond: the two clocks are read
// microseconds apart. Zero when either time is unknown.
func requeueAfter(at time.Time, until string) time.Duration {
	end := parseTime(until)
	if at.IsZero() || end.IsZero() || !end.After(at) {
		return 0
	}
	return end.Sub(at).Round(time.Millisecond)
}
