package view

import (
	"slices"
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

// logFit is what the header's first line can give up for a log's name:
// the name, parts[name] (none when name < 0), and the part that says when
// the saved log ends, parts[ends] (none when ends < 0), whose short form,
// endsShort, keeps how long ago and leaves out the date.
type logFit struct {
	name, ends int
	endsShort  string
}

// fitLogName cuts the log's name in its middle when the header's first
// line, its parts joined by sep, is wider than width: a log's path
// (/var/log/pods/…/0.log) gives up its middle before what the read
// understood ("none recognised", "4 failure lines unreadable") is cut off
// the line's end. The file name, at its end, is kept. The name is cut once:
// it ends before the screen's edge, which cuts only what follows it
// (it was cut in its middle, then again at the edge: "logs:…ys-same-seco…").
// When the parts before it leave it fewer than minLogName cells, the end
// of the log says how long ago, not its date and time ("log ended 6y95d
// ago", not "log ends 2020-09-04 06:34:44 UTC (6y95d ago)").
func fitLogName(parts []string, f logFit, sep string, width int) {
	over := joinedWidth(parts, sep) - width
	if f.name < 0 || over <= 0 {
		return
	}
	n := max(minLogName, lipgloss.Width(parts[f.name])-over)
	if f.ends >= 0 && f.ends < f.name && nameRoom(parts, f.name, sep, width) < min(n, lipgloss.Width(parts[f.name])) {
		parts[f.ends] = f.endsShort
		n = max(minLogName, lipgloss.Width(parts[f.name])-(joinedWidth(parts, sep)-width))
	}
	if room := nameRoom(parts, f.name, sep, width); room >= minNameCut {
		n = min(n, room)
	}
	parts[f.name] = cutLogName(parts[f.name], n)
}

// cutLogName fits name, "logs: PATH", in n cells: PATH gives up its
// directories first, from its start, as k9s shortens a path ("logs:
// …/manager/0.log"), then the
// middle of its file name, whose start and end are kept ("logs:
// 234-h…same-second.log"). A name that is not a path (a selector, "logs:
// -l app.kubernetes.io/name=x") is cut in its middle.
func cutLogName(name string, n int) string {
	if lipgloss.Width(name) <= n {
		return name
	}
	p, ok := strings.CutPrefix(name, inspector.LogSourcePrefix)
	if !ok || n-lipgloss.Width(inspector.LogSourcePrefix) < minNameCut {
		return text.CutMiddle(name, n, n-1-(n-1)/4, false, text.Cells)
	}
	n -= lipgloss.Width(inspector.LogSourcePrefix)
	if i := strings.LastIndex(p, "/"); i >= 0 && i < len(p)-1 && !strings.Contains(p, " ") {
		// Its last directories that fit, the nearest first: a kubelet's
		// path keeps its container ("…/manager/0.log").
		short := ""
		for j := i; j >= 0; j = strings.LastIndex(p[:j], "/") {
			if lipgloss.Width("…"+p[j:]) > n {
				break
			}
			short = "…" + p[j:]
		}
		if short != "" {
			return inspector.LogSourcePrefix + short
		}
		p = p[i+1:] // the file name alone, cut below
	}
	return inspector.LogSourcePrefix + text.CutMiddle(p, n, n-1-(n-1)/4, false, text.Cells)
}

// minNameCut is the fewest cells the name is cut to so that it ends before
// the screen's edge; with less room, the edge cuts it.
const minNameCut = 12

// nameRoom is how many cells the line leaves parts[i] after the parts
// before it, and before the "…" the screen's edge puts on what follows.
func nameRoom(parts []string, i int, sep string, width int) int {
	before := joinedWidth(parts[:i], sep)
	if before > 0 {
		before += lipgloss.Width(sep)
	}
	if joinedWidth(parts[i+1:], sep) > 0 {
		before += 2 // " …"
	}
	return width - before
}

// joinedWidth is the width of parts joined by sep, the empty ones (given
// up) left out, as the header joins them.
func joinedWidth(parts []string, sep string) int {
	return lipgloss.Width(strings.Join(slices.DeleteFunc(slices.Clone(parts), func(p string) bool { return p == "" }), sep))
}
