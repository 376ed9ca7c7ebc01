package widget

// The header's forecast line: the keys falling due over the next 60s.

import (
	"fmt"
	"time"

	"charm.land/lipgloss/v2"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// ForecastLine is the herd before it hits: how many keys fall due in each
// of the next 60 seconds, as the endpoint counted them; afterEnd says the
// seconds are after a saved log's end, long past ("due 60s after log
// end"), not a countdown. "due", not
// "retries": a scheduled key's RequeueAfter re-check counts as a backoff
// key's retry does. The label always shows; a narrow terminal draws a cell
// per 2 (or more) seconds.
//
// ov is the last overview (nil before the first), controller the one shown
// ("" for all), now the server's time, width the line's.
func ForecastLine(s *Styles, ov *inspector.Overview, controller string, now time.Time, width int, afterEnd bool) string {
	const horizon = api.ForecastSeconds
	per := 1
	label := func() string { return fmt.Sprintf("due in %ds, %s/cell ", horizon, perLabel(per)) }
	if afterEnd {
		label = func() string { return fmt.Sprintf("due %ds after log end, %s/cell ", horizon, perLabel(per)) }
	}
	for per < horizon && len(label())+2+horizon/per > width {
		per++
	}
	if ov == nil {
		return s.Label.Render(label()) + s.Dim.Render("…")
	}
	counts, pending := forecast(ov, controller, now)
	peak, at, due := 0, 0, 0
	for i, n := range counts {
		due += n
		if n > peak {
			peak, at = n, i
		}
	}
	cells := make([]int, (horizon+per-1)/per)
	for i, n := range counts {
		cells[i/per] += n
	}
	line := s.Label.Render(label()) + s.Dim.Render("│") + s.Spark.Render(Sparkline(cells)) + s.Dim.Render("│")
	sums := []string{"none due"}
	if due > 0 {
		sums = []string{
			fmt.Sprintf("%s due (of %s pending) · peak %s/s at +%ds", text.Thousands(due), text.Thousands(pending), text.Thousands(peak), at),
			fmt.Sprintf("%s due · peak %s/s at +%ds", text.Thousands(due), text.Thousands(peak), at),
			fmt.Sprintf("%s due", text.Thousands(due)),
		}
	}
	for _, sum := range sums {
		if lipgloss.Width(line)+1+lipgloss.Width(sum) <= width {
			return line + " " + sum
		}
	}
	return line
}

// perLabel is a forecast cell's span: "1s", "2s".
func perLabel(per int) string { return fmt.Sprintf("%ds", per) }

// forecast sums the endpoint's per-second retry counts over the controllers
// shown (controller "" is all), shifted by the seconds elapsed since they
// were counted at ov.ServerTime.
func forecast(ov *inspector.Overview, controller string, now time.Time) (counts []int, pending int) {
	counts = make([]int, api.ForecastSeconds)
	shift := max(0, int(now.Sub(ov.ServerTime)/time.Second))
	for _, c := range ov.Controllers {
		if controller != "" && c.Name != controller {
			continue
		}
		pending += c.Pending
		for i, n := range c.Forecast {
			// A retry whose second has passed since the count is due now,
			// as its row says, until the next overview says otherwise.
			if j := max(0, i-shift); j < api.ForecastSeconds {
				counts[j] += n
			}
		}
	}
	return counts, pending
}
