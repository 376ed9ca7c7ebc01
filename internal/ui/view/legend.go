package view

import (
	"slices"
	"strings"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// Legend explains the marks on the top view the first time each appears:
// the footer says it once, help says it always.
func (t *Top) Legend() string {
	seen := t.C.SeenMarks
	var out []string
	if len(t.changed) > 0 && !seen["•"] {
		seen["•"] = true
		out = append(out, "• marks a row that changed since the previous refresh")
	}
	if p := t.Page; p != nil && !seen["*"] && slices.ContainsFunc(p.Items, func(k inspector.PodKey) bool { return k.Estimated }) {
		seen["*"] = true
		out = append(out, "* marks a key estimated from logs")
	}
	if ov := t.Overview; ov != nil && !seen["│"] && slices.ContainsFunc(ov.Controllers, func(c api.Controller) bool { return c.Pending > 0 }) {
		seen["│"] = true
		out = append(out, "│▁▃█│ counts the keys falling due over the next 60s")
	}
	if len(out) == 0 {
		return ""
	}
	return strings.Join(out, "; ") + " (? explains every mark)"
}
