package view

import (
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// minLogName is the fewest cells a log's name is cut to in the header:
// "logs: /var/…/manager/0.log".
const minLogName = 24

// logNameAt is at when r is a log (its name is the header's part at at),
// else was.
func logNameAt(was, at int, r inspector.Replica) int {
	if r.Source.Logged() {
		return at
	}
	return was
}

// fitLogName cuts the log's name, parts[i] (none when i < 0), in its
// middle when the header's first line, its parts joined by sep, is wider
// than width: a log's path (/var/log/pods/…/0.log) gives up its middle
// before what the read understood ("none recognised", "4 failure lines
// unreadable") is cut off the line's end. The file name, at its end, is
// kept.
func fitLogName(parts []string, i int, sep string, width int) {
	over := lipgloss.Width(strings.Join(parts, sep)) - width
	if i < 0 || over <= 0 {
		return
	}
	n := max(minLogName, lipgloss.Width(parts[i])-over)
	parts[i] = text.CutMiddle(parts[i], n, n-1-(n-1)/4, false, text.Cells)
}
