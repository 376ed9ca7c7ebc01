package explain

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// ReadFact is one thing the log-read note says: top's header draws Short,
// `--from-logs`' note on stderr writes Long, in the order ReadFacts gives.
type ReadFact struct {
	// Short is the header's words ("4 failure lines unreadable"); "" when
	// the header leaves the fact out, for want of room.
	Short string
	// Long is the note's words, which say what the fact means for the
	// numbers ("4 lines looked like failures but could not be read, e.g.:").
	Long string
	// Warn says the fact is bad news (nothing recognised, lines that
	// could not be read): the header draws it in the warning style, the
	// rest after the first two dimmed.
	Warn bool
}

// ReadFacts is the one log-read note: what a read of a log understood, as
// facts in the order both renderings say them (LogReadPart for top's
// header, the note `get --from-logs` prints): the lines read, the records
// by dialect or that none was recognised, the records without a time (the
// impossible ones apart), those whose year was assumed, and the
// failure-looking lines that could not be read, last because the note
// follows them with an example.
func ReadFacts(lr *api.LogRead) []ReadFact {
	out := []ReadFact{{Short: count(lr.Lines, "line", "lines"), Long: "read " + count(lr.Lines, "line", "lines")}}
	if r := Recognised(lr); r == "" {
		out = append(out, ReadFact{Short: "none recognised", Long: "none recognised as a controller's reconcile line", Warn: true})
	} else {
		out = append(out, ReadFact{Short: r, Long: "recognised: " + r})
	}
	if lr.Stopped != "" {
		// Second, as an ended input is, and instead of it: the read
		// stopped short, and the fact says why and what to do.
		out = slices.Insert(out, 1, ReadFact{Short: lr.Stopped, Warn: true, Long: lr.Stopped})
	} else if lr.Ended {
		// Second in the header, where a narrow screen still shows it: a
		// view that only counts down does not read as live.
		out = slices.Insert(out, 1, ReadFact{Short: "input ended", Warn: true,
			Long: "the input ended: no line will come after these"})
	}
	if n := lr.Untimed - lr.Implausible; n > 0 {
		out = append(out, ReadFact{Short: fmt.Sprintf("%s without a time", text.Thousands(n)),
			Long: fmt.Sprintf("%s without a time I could read (their times are unknown: nothing is counted from them)", text.Thousands(n))})
	}
	if lr.Implausible > 0 {
		out = append(out, ReadFact{Short: fmt.Sprintf("%s with an impossible time", text.Thousands(lr.Implausible)),
			Long: fmt.Sprintf("%s with a time that cannot be true (before 2000, or over a day past this clock), read as unknown", text.Thousands(lr.Implausible))})
	}
	if lr.YearAssumed > 0 {
		out = append(out, ReadFact{
			Long: fmt.Sprintf("%s dated without a year (klog) in a log that names none: the year is this clock's, an assumption", text.Thousands(lr.YearAssumed))})
	}
	if lr.OutOfOrder > 0 {
		how := "read sorted by time, as if written in order"
		if lr.NewestFirst {
			how = "newest first: read reversed, then sorted by time"
		}
		out = append(out, ReadFact{Short: fmt.Sprintf("%s lines out of order", text.Thousands(lr.OutOfOrder)),
			Long: fmt.Sprintf("%s older than a line before them (%s)", count(lr.OutOfOrder, "line", "lines"), how)})
	}
	if lr.Evicted > 0 {
		from := ""
		if !lr.EvictedSince.IsZero() {
			from = " from " + lr.EvictedSince.UTC().Format(time.DateTime) + " UTC on"
		}
		out = append(out, ReadFact{Short: fmt.Sprintf("%s keys dropped (store full)", text.Thousands(lr.Evicted)), Warn: true,
			Long: count(lr.Evicted, "key", "keys") + " dropped" + from + ": the store tracks a bounded number of keys, and dropped the settled and least recently logged first; the keys listed are not all the log held (read less of it, or one controller's lines)"})
	}
	if lr.Unreadable > 0 {
		out = append(out, ReadFact{Short: count(lr.Unreadable, "failure line", "failure lines") + " unreadable", Warn: true,
			Long: count(lr.Unreadable, "line looked like a failure", "lines looked like failures") + " but could not be read, e.g.:"})
	}
	return out
}

// count is "1 line" or "2 lines".
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return text.Thousands(n) + " " + many
}

// Recognised is what of a log was read, by dialect, in the dialects'
// order: "Flux (JSON) 3, controller-runtime 12"; "" when no line was
// recognised. The header's log part and `get --from-logs`' note both say
// it this way.
func Recognised(lr *api.LogRead) string {
	var b strings.Builder
	for i, d := range slices.Sorted(maps.Keys(lr.Recognised)) {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s %s", text.Printable(d), text.Thousands(lr.Recognised[d])) // a dialect file's name
	}
	return b.String()
}
