package widget

import (
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// LogReadPart is top's header's rendering of the log-read note
// (ReadFacts): the lines read, the records by dialect, what had no time
// and the failure-looking lines that could not be read (`get --from-logs`
// prints one of them).
func LogReadPart(s *Styles, lr *api.LogRead) string {
	out := s.Label.Render("log ")
	for i, f := range explain.ReadFacts(lr) {
		switch {
		case f.Short == "":
		case i == 0:
			out += f.Short
		case f.Warn:
			out += s.Warn.Render(", " + f.Short)
		case i == 1:
			out += ", " + f.Short
		default:
			out += s.Dim.Render(", " + f.Short)
		}
	}
	return out
}

// LogEndsText says what a saved log's times count from: "log ends
// 22:08:26 (1m5s ago)", with the date when it is older than a day (a
// time of day alone would read as today's).
func LogEndsText(end, now time.Time) string {
	at := text.TimeOfDay(end)
	if now.Sub(end) > 24*time.Hour {
		at = text.Timestamp(end)
	}
	return "log ends " + at + " (" + text.Ago(end, now) + ")"
}

// AfterLogEnd follows LogEndsText when the log ended minutes ago or more:
// its NEXT times and forecast count from its end, not from now.
const AfterLogEnd = "NEXT counts from it"

// LogEndedAgo is LogEndsText short, for a narrow line: "log ended 6y95d
// ago", how long ago without the date.
func LogEndedAgo(end, now time.Time) string {
	return "log ended " + text.Ago(end, now)
}
