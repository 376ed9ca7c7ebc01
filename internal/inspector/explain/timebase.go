package explain

import "github.com/kubectl-backoff/kubectl-backoff/instrument/api"

// A diagnosis is judged at the server's time. For a saved log that time is
// the log's last line (api.ListSource.EndsAt), which may be an hour or a
// week before it is read: "in 5m24s" would read as from now, and never move.
// So a countdown or an age from a saved log's time says what it counts from.

// inText is a countdown as a sentence's parenthesis: "in 5m24s", or for a
// saved log "5m24s after the log's last line". left is the formatted
// duration (Countdown, FormatDuration).
func inText(left string, src *api.ListSource) string {
	if src.Ended() {
		return left + " after the log's last line"
	}
	return "in " + left
}

// agoText is inText's past: "3s ago", or "3s before the log's last line".
func agoText(past string, src *api.ListSource) string {
	if src.Ended() {
		return past + " before the log's last line"
	}
	return past + " ago"
}
