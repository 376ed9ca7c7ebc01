package cli

import (
	"bytes"
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// describe on a terminal fits its width, as get and top do: its sentences
// wrap between words under their own indent (writeProse, why's rule too),
// and its History table leaves out TOOK, then CLASS, until ERROR has room,
// then cuts each error to that room, its start and its cause kept. A pipe
// gets every line and error whole.

// historyRoom is the fewest cells a terminal's History table keeps for
// ERROR, leaving out TOOK and CLASS for it: an error's start and its cause
// ("sync with…503 Service Unavailable").
const historyRoom = 30

// historyCols says which columns of the History table a terminal too
// narrow for all of them leaves out, and how many runes an error keeps
// (0: maxHistoryError, or whole off a terminal).
type historyCols struct {
	noTook, noClass bool
	errRoom         int
}

// renderHistory is the History table's lines with cols.
func renderHistory(hist []api.Attempt, cols historyCols, errRunes int) []string {
	var b bytes.Buffer
	tw := newTable(&b)
	head := []string{"  TIME", "TRIGGER", "OUTCOME", "DELAY"}
	if !cols.noTook {
		head = append(head, "TOOK")
	}
	if !cols.noClass {
		head = append(head, "CLASS")
	}
	fmt.Fprintln(tw, strings.Join(append(head, "ERROR"), "\t"))
	clock := historyClock(hist)
	for i, a := range hist {
		row := []string{"  " + clock(a.At), explain.TriggerCellAt(hist, i), a.Outcome, dur(a.Delay.Duration)}
		if !cols.noTook {
			row = append(row, dur(a.Duration.Duration))
		}
		if !cols.noClass {
			row = append(row, dash(a.Class))
		}
		n := errRunes
		if cols.errRoom > 0 {
			n = cols.errRoom
		}
		fmt.Fprintln(tw, strings.Join(append(row, dash(text.OneLineAtBreaks(a.Error, n))), "\t"))
	}
	tw.Flush()
	return strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
}

// historyClock is how the History table prints its times: to the
// millisecond, as attempts can be that close, unless every time is a whole
// second, as a log dates its lines to the second (controller-runtime's
// default RFC 3339 times): ".000" eight times over was a precision the
// log never had. An endpoint's times, to the microsecond, are never all
// whole.
func historyClock(hist []api.Attempt) func(time.Time) string {
	for _, a := range hist {
		if a.At.Nanosecond() != 0 {
			return text.TimeOfDayMillis
		}
	}
	return text.TimeOfDay
}

// fitHistory is the History table fitted to width cells (0: none, the
// table as errRunes cuts it).
func fitHistory(hist []api.Attempt, width, errRunes int) []string {
	var c historyCols
	lines := renderHistory(hist, c, errRunes)
	if width <= 0 || widest(lines) <= width {
		return lines
	}
	for _, narrow := range []func(){func() { c.noTook = true }, func() { c.noClass = true }} {
		if width-errorAt(lines) >= historyRoom {
			break
		}
		narrow()
		lines = renderHistory(hist, c, errRunes)
	}
	c.errRoom = max(width-errorAt(lines), 12)
	lines = renderHistory(hist, c, errRunes)
	for i, l := range lines {
		if ansi.StringWidth(l) > width {
			lines[i] = ansi.Truncate(l, width, "…")
		}
	}
	return lines
}

// errorAt is where ERROR starts in a History table's header line.
func errorAt(lines []string) int {
	i := strings.LastIndex(lines[0], "ERROR")
	if i < 0 {
		return 0
	}
	return ansi.StringWidth(lines[0][:i])
}
