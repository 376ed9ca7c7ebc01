package view

import (
	"fmt"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// The NEXT RETRY cell: when the key is tried again, how long a running key
// has run, or, on a log that ended long ago, the time after its end.

// nextRetryCell is the NEXT RETRY cell at width w. A running key has no
// next retry: it shows how long it has been running, said so ("for 4s", as
// get says "running 4s", explain.NextRetryText), since a bare "4s" under
// NEXT RETRY reads as "retries in 4s"; to the minute, hour or day
// ("for 12m") where the whole time does not fit, never cut.
func nextRetryCell(w int) func(*explain.KeyRow) string {
	return func(r *explain.KeyRow) string {
		if !r.Running {
			return r.NextRetry
		}
		d := r.RunningFor
		if s := "for " + text.FormatSeconds(d); len(s) <= w {
			return s
		}
		return "for " + coarse(d)
	}
}

// afterLogEnd is a NEXT cell of a log that ended long ago: a time after
// its end, "+15s", which cannot read as a live countdown ("15s"); "due",
// "ready" and "-" stay.
func afterLogEnd(next string) string {
	if next == "" || next == "-" || next == "due" || next == "ready" {
		return next
	}
	return "+" + next
}

// coarse is d in its largest unit, rounded down as text.FormatSeconds
// rounds: "12m", "2h", "3d"; seconds under a minute.
func coarse(d time.Duration) string {
	switch {
	case d < time.Minute:
		return text.FormatSeconds(d)
	case d < time.Hour:
		return fmt.Sprintf("%dm", d/time.Minute)
	case d < 24*time.Hour:
		return fmt.Sprintf("%dh", d/time.Hour)
	}
	return fmt.Sprintf("%dd", d/(24*time.Hour))
}
