package explain

import (
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// NextRetryText is what a "next retry" column shows for k at now: the
// countdown for a backoff or scheduled key ("4m12s", "due"; "-" while now,
// the server's clock, is unknown), "ready" for a queued key, the time a
// running key has been running ("running 2s"), and "-" otherwise.
func NextRetryText(k api.Key, now time.Time) string { return nextRetryIn(k, now, "running ") }

// NextRetryCompact is NextRetryText for a narrow column: a running key
// shows only how long it has been running ("2s").
func NextRetryCompact(k api.Key, now time.Time) string { return nextRetryIn(k, now, "") }

// nextRetryIn is the rule of both: running prefixes a running key's time.
func nextRetryIn(k api.Key, now time.Time, running string) string {
	switch k.State {
	case api.StateBackoff, api.StateScheduled:
		if now.IsZero() {
			return "-"
		}
		return text.Countdown(k.NextRetryAt, now)
	case api.StateQueued:
		return "ready"
	case api.StateRunning:
		if !k.StartedAt.IsZero() {
			return running + text.FormatSeconds(now.Sub(k.StartedAt))
		}
	}
	return "-"
}
