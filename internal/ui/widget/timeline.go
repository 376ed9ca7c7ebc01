package widget

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"charm.land/lipgloss/v2"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// barEighths draw a bar's last cell in eighths, so small delays still show.
var barEighths = []string{"", "▏", "▎", "▍", "▌", "▋", "▊", "▉"}

// bar is a horizontal bar of d relative to peak, at most width cells: on a
// linear scale the exponential backoff shows as the curve it is.
func bar(d, peak time.Duration, width int) string {
	if d <= 0 || peak <= 0 || width <= 0 {
		return ""
	}
	eighths := int(int64(d) * int64(width*8) / int64(peak))
	eighths = max(eighths, 1)
	return strings.Repeat("█", eighths/8) + barEighths[eighths%8]
}

// Timeline is the key's attempts, oldest first, in w cells: time, outcome,
// delay, a bar of the delay, and the error — a run of identical errors
// written once.
func Timeline(s *Styles, k *api.Key, w int) []string {
	hist := k.History
	if len(hist) == 0 {
		return []string{s.Label.Render("Attempts ") + s.Dim.Render("none recorded yet")}
	}
	var peak time.Duration
	for _, a := range hist {
		peak = max(peak, a.Delay.Duration)
	}
	runs, before := errorRuns(hist, k)
	// The error is what the reader came for: it takes what it needs, and
	// the bar what is left, between 8 and 40 cells.
	need := 0
	for _, r := range runs {
		need = max(need, lipgloss.Width(r))
	}
	avail := w - (8 + 1 + whyWidth + 1 + 13 + 1 + 7 + 1 + 1)
	barW := max(8, min(40, avail-need))
	errW := max(10, avail-barW)
	title := s.Label.Render(fmt.Sprintf("Attempts (last %d, oldest first)", len(hist)))
	if before > 0 {
		title += s.Dim.Render(fmt.Sprintf(" · %d earlier, same error", before))
	}
	out := []string{
		title,
		s.Header.Render(Fit(fmt.Sprintf("%-8s %-*s %-13s %7s %-*s %s", "TIME", whyWidth, "WHY", "OUTCOME", "DELAY", barW, "BACKOFF", "ERROR"), w)),
	}
	for i, a := range hist {
		delay := "-"
		if a.Delay.Duration > 0 {
			delay = text.FormatDuration(a.Delay.Duration)
		}
		outcome := a.Outcome
		switch a.Outcome {
		case api.OutcomeError, api.OutcomeTerminal:
			outcome = s.Bad.Render(Fit(outcome, 13))
		case api.OutcomeSuccess:
			outcome = s.OK.Render(Fit(outcome, 13))
		default:
			outcome = Fit(outcome, 13)
		}
		line := fmt.Sprintf("%s %s %s %7s %s %s", text.TimeOfDay(a.At), Fit(why(a), whyWidth), outcome, delay,
			s.Bar.Render(Fit(bar(a.Delay.Duration, peak, barW), barW)), Fit(runs[i], errW))
		out = append(out, line)
	}
	return out
}

// whyWidth is the timeline's WHY column.
const whyWidth = 9

// why is the WHY column: what made the attempt run (api.Attempt.Trigger),
// "event!" for a watch event that came before a pending retry. The detail
// explanation above the timeline says the same in words.
func why(a api.Attempt) string {
	switch {
	case a.Outcome == api.OutcomeForgotten:
		return "forget"
	case a.Trigger == api.TriggerEvent && a.Preempted:
		return "event!"
	case a.Trigger == api.TriggerRequeueAfter:
		return "req-after"
	case a.Trigger == api.TriggerSooner: // log mode: an event, or a success not logged
		return "sooner?"
	case a.Trigger == api.TriggerLate: // log mode: a success not logged, or no free worker
		return "late?"
	case a.Trigger == "":
		return "-"
	}
	return a.Trigger
}

// errorRuns is the error column of each attempt: the first of a run of
// identical consecutive errors says "×N ..." (its TIME says since when),
// the rest of the run a ditto mark. The count goes first and short, so
// that a narrow column still shows the error.
//
// The rule: a label counts the rows it labels, nothing else, so the number
// a reader sees next to a row is the rows its ditto marks span. A forget row
// ends a run on screen, though the wire's SameErrorCount runs on across it
// (a forget resets the failure count, not the run of the same error). The
// wire's count is used only for what is older than the kept history:
// before is how many attempts before the oldest row ended in the oldest
// row's error, as part of the run the key is still in; the caller says it
// once, above the table, so that before + the labels = SameErrorCount.
func errorRuns(hist []api.Attempt, k *api.Key) (cells []string, before int) {
	out := make([]string, len(hist))
	for i := 0; i < len(hist); {
		j := i + 1
		for j < len(hist) && hist[j].Error != "" && hist[j].Error == hist[i].Error {
			j++
		}
		msg := text.OneLine(hist[i].Error, 0)
		if n := j - i; n > 1 && msg != "" {
			msg = fmt.Sprintf("×%d %s", n, msg)
		}
		out[i] = msg
		for x := i + 1; x < j; x++ {
			out[x] = "  ″"
		}
		i = j
	}
	return out, sameErrorBefore(hist, k)
}

// sameErrorBefore is how many of the key's SameErrorCount attempts are older
// than the kept history: the run is followed back from the newest row,
// stepping over forget rows as the wire does; 0 unless it reaches row 0.
func sameErrorBefore(hist []api.Attempt, k *api.Key) int {
	if k.LastError == nil || len(hist) == 0 {
		return 0
	}
	kept := 0
	for _, a := range slices.Backward(hist) {
		switch {
		case a.Outcome == api.OutcomeForgotten:
			continue // a reset, not an attempt
		case a.Error != k.LastError.Message:
			return 0 // the run began within the history
		}
		kept++
	}
	return max(0, k.SameErrorCount-kept)
}
