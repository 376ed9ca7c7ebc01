package widget

// The header's limiters line: each controller's rate limiter in brief.

import (
	"fmt"
	"strings"
	"time"

	"charm.land/lipgloss/v2"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// LimiterCycle is how long each screenful of limiters shows when they do
// not all fit on the line.
const LimiterCycle = 4 * time.Second

// LimiterLine describes the limiters: in full for one controller, in brief
// for several. A controller's limiter is never cut: when they do not all
// fit, the line shows as many whole ones as fit and cycles through the rest.
//
// shown are the controllers the view covers, width the line's, now the
// local clock (which screenful shows).
func LimiterLine(s *Styles, shown []api.Controller, width int, now time.Time) string {
	if len(shown) == 1 {
		c := shown[0]
		line := s.Label.Render("limiter ") + text.Printable(explain.ControllerWords(c.Name)+": "+c.Limiter.Description)
		if tok := bucketTokens(&c); tok != "" {
			line += s.Label.Render(" · bucket tokens ") + tok
		}
		if c.QueueDepth != nil {
			line += s.Label.Render(" · queue ") + text.Thousands(*c.QueueDepth)
		}
		if lipgloss.Width(line) <= width {
			return line
		}
		return s.Label.Render("limiter ") + text.Printable(explain.ControllerWords(c.Name)+" "+briefLimiter(&c))
	}
	if len(shown) == 0 {
		return s.Label.Render("limiters ") + s.Dim.Render("…")
	}
	parts := make([]string, 0, len(shown))
	for _, c := range shown {
		parts = append(parts, text.Printable(c.Name+" "+briefLimiter(&c)))
	}
	label, sep := s.Label.Render("limiters "), s.Dim.Render(" · ")
	// Screenfuls of whole limiters, each leaving room for "(2 of 3)".
	var pages [][]string
	var cur []string
	room := width - lipgloss.Width(label) - len(" (9 of 9)")
	for _, p := range parts {
		if len(cur) > 0 && lipgloss.Width(strings.Join(append(cur, p), sep)) > room {
			pages, cur = append(pages, cur), nil
		}
		cur = append(cur, p)
	}
	pages = append(pages, cur)
	if len(pages) == 1 {
		return label + strings.Join(pages[0], sep)
	}
	i := int(now.UnixNano()/int64(LimiterCycle)) % len(pages)
	// "(1 of 3)": the line takes turns, page by page, limiterCycle each.
	return label + strings.Join(pages[i], sep) + s.Dim.Render(fmt.Sprintf(" (%d of %d)", i+1, len(pages)))
}

// briefLimiter is a limiter's components in a few words: "exp 5ms..16m40s+bucket 87/100".
func briefLimiter(c *api.Controller) string {
	var parts []string
	for _, comp := range c.Limiter.Components {
		switch comp.Name {
		case api.SourceItemFixed:
			parts = append(parts, "fixed "+text.FormatDuration(comp.BaseDelay.Duration))
		case api.SourceItemExponential:
			parts = append(parts, "exp "+text.FormatDuration(comp.BaseDelay.Duration)+".."+text.FormatDuration(comp.MaxDelay.Duration))
		case api.SourceBucket:
			parts = append(parts, "bucket "+bucketTokens(c))
		default:
			parts = append(parts, comp.Name)
		}
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, "+")
}

// bucketTokens is "87/100", the bucket's tokens now, or "" with no bucket;
// "87/100*" when they are estimated (log mode), as "*" marks a key.
func bucketTokens(c *api.Controller) string {
	for _, comp := range c.Limiter.Components {
		if comp.Name == api.SourceBucket && comp.Tokens != nil {
			s := fmt.Sprintf("%.0f/%d", max(*comp.Tokens, 0), comp.Burst)
			if comp.Estimated {
				s += "*"
			}
			return s
		}
	}
	return ""
}
