package cli

import (
	"io"
	"strings"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// describe on a terminal fits its width, as get and top do: its sentences
// wrap between words under their own indent (writeProse, why's rule too),
// and its History table leaves out TOOK, then CLASS, until ERROR has room
// (minMessageRoom), then wraps each error in that room, as why's tables
// wrap a MESSAGE (writeMessageTable), or, with too little room even so,
// puts it under its row (writeMessagesUnder): cut to the room, an 80-column
// History kept "sync with…503 Service Unavailable" of every error. A pipe
// gets every line and error whole.

// historyCols says which columns of the History table a terminal too
// narrow for all of them leaves out.
type historyCols struct {
	noTook, noClass bool
}

// historyTable is the History table as writeMessageTable takes it: its
// tab-separated head, ERROR last; each attempt's cells before ERROR; and
// each attempt's error, flattened and cut to errRunes (0: whole), "" for
// none.
func historyTable(hist []api.Attempt, cols historyCols, errRunes int) (head string, rows [][]string, errs []string) {
	cells := []string{"  TIME", "TRIGGER", "OUTCOME", "DELAY"}
	if !cols.noTook {
		cells = append(cells, "TOOK")
	}
	if !cols.noClass {
		cells = append(cells, "CLASS")
	}
	head = strings.Join(append(cells, "ERROR"), "\t")
	clock := historyClock(hist)
	for i, a := range hist {
		row := []string{"  " + clock(a.At), explain.TriggerCellAt(hist, i), a.Outcome, dur(a.Delay.Duration)}
		if !cols.noTook {
			row = append(row, dur(a.Duration.Duration))
		}
		if !cols.noClass {
			row = append(row, explain.ClassCell(a.Class))
		}
		rows = append(rows, row)
		errs = append(errs, text.OneLineAtBreaks(a.Error, errRunes))
	}
	return head, rows, errs
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

// writeHistory writes the History table: on a terminal of screen cells,
// fitted to it (see above); piped (screen 0), every column, each error
// whole on its row.
func writeHistory(w io.Writer, hist []api.Attempt, screen, errRunes int) {
	var c historyCols
	head, rows, errs := historyTable(hist, c, errRunes)
	if screen <= 0 {
		writeMessagesBeside(w, head, rows, errs)
		return
	}
	for _, narrow := range []func(){func() { c.noTook = true }, func() { c.noClass = true }} {
		if screen-messageColumn(head, rows) >= minMessageRoom {
			break
		}
		narrow()
		head, rows, errs = historyTable(hist, c, errRunes)
	}
	writeMessageTable(w, head, rows, errs, screen)
}
