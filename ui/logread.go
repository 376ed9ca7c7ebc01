package ui

import (
	"fmt"
	"slices"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// logReadPart says how much of a log was understood: the lines read, the
// records by dialect, and the failure-looking lines that could not be read
// (`get --from-logs` prints one of them).
func (t *topModel) logReadPart(lr *api.LogRead) string {
	s := &t.c.styles
	out := s.label.Render("log ") + fmt.Sprintf("%d lines", lr.Lines)
	dialects := make([]string, 0, len(lr.Recognised))
	for d := range lr.Recognised {
		dialects = append(dialects, d)
	}
	slices.Sort(dialects)
	for _, d := range dialects {
		out += fmt.Sprintf(", %s %d", d, lr.Recognised[d])
	}
	if len(dialects) == 0 {
		out += s.warn.Render(", none recognised")
	}
	if lr.Unreadable > 0 {
		out += s.warn.Render(fmt.Sprintf(", %d failure lines unreadable", lr.Unreadable))
	}
	if lr.Untimed > 0 {
		out += s.dim.Render(fmt.Sprintf(", %d without a time", lr.Untimed))
	}
	return out
}
