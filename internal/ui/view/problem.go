package view

import (
	"fmt"
	"strings"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/widget"
)

// problemPanel is the panel, between the header and the table, that says
// why the last refresh of m failed: what was tried, when, the error in full
// (wrapped), and when it is tried again; none while m's last read answered.
// A function of the read model and the shared state (the clock, the pause,
// the options' refresh and give-up), as the header and the table are.
func problemPanel(c *Common, m *TopModel) []string {
	if m.Err == nil {
		return nil
	}
	s := &c.Styles
	w := c.Width
	var eps []string
	if m.Overview != nil {
		for _, r := range m.Overview.Replicas {
			eps = append(eps, text.Printable(r.Endpoint))
		}
	}
	where := "the endpoint"
	if len(eps) > 0 {
		where = strings.Join(eps, ", ")
	}
	title := "cannot read " + where
	if m.reached {
		title = "lost " + where
	}
	tried := fmt.Sprintf("tried GET v1/controllers and v1/keys at %s (failing for %s)",
		text.TimeOfDay(m.lastSent), text.FormatSeconds(c.Now().Sub(m.failedSince)))
	next := m.lastSent.Add(c.Opts.Refresh)
	retry := "tries again in " + text.Countdown(next, c.Now())
	if !next.After(c.Now()) {
		retry = "tries again now"
	}
	retry += ", every " + text.FormatDuration(c.Opts.Refresh)
	switch {
	case c.Paused:
		retry = "paused: ctrl+r tries again"
	case !m.reached:
		giveUp := c.Opts.GiveUp - c.Now().Sub(m.failedSince)
		retry += fmt.Sprintf("; gives up in %s if it never answers", text.FormatDuration(max(0, giveUp).Truncate(time.Second)))
	default:
		retry += "; the last answer stays below"
	}
	inner := max(10, w-4)
	var body []string
	err := m.Err
	if say := c.Opts.Explain; say != nil {
		err = say(err)
	}
	for _, l := range []string{s.Bad.Render("✗ ") + title, tried, widget.ErrText(err), retry} {
		body = append(body, text.Wrap(l, inner)...)
	}
	return strings.Split(s.Panel.Width(w).Render(strings.Join(body, "\n")), "\n")
}
