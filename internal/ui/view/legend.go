package view

import (
	"slices"
	"strings"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// TopLegend explains the marks on the top view the first time each
// appears: the footer says it once, help says it always. It is a function
// of what it is handed — the marks said so far, and the answer whose marks
// it explains — as the header and the table are.
type TopLegend struct {
	// Seen are the marks said so far (Common.SeenMarks); Say adds to it.
	Seen map[string]bool
	// Changed says some row of the page is marked changed ("•").
	Changed bool
	Page    *inspector.KeyList
	// Overview is the last counts: a controller with keys falling due
	// draws the forecast's "│▁▃█│".
	Overview *inspector.Overview
}

// Say is the legend of the marks not said yet, and marks them said; ""
// when there is none.
func (l TopLegend) Say() string {
	seen := l.Seen
	var out []string
	if l.Changed && !seen["•"] {
		seen["•"] = true
		out = append(out, "• marks a row that changed since the previous refresh")
	}
	if p := l.Page; p != nil && !seen["*"] && slices.ContainsFunc(p.Items, func(k inspector.PodKey) bool { return k.Estimated }) {
		seen["*"] = true
		out = append(out, "* marks a key estimated from logs")
	}
	if ov := l.Overview; ov != nil && !seen["│"] && slices.ContainsFunc(ov.Controllers, func(c api.Controller) bool { return c.Pending > 0 }) {
		seen["│"] = true
		out = append(out, "│▁▃█│ counts the keys falling due over the next 60s")
	}
	if len(out) == 0 {
		return ""
	}
	return strings.Join(out, "; ") + " (? explains every mark)"
}
