package cli

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"golang.org/x/term"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/logs"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// The notes --from-logs prints on stderr beside its answers: what a read
// of a log found (printReadNote), and where one key's numbers come from
// (printLogNote).

// printReadNote says on stderr what a one-shot read of a log found, so that
// a user knows at once whether the tool understood their log, and a table of
// estimates is never mistaken for the controller's own numbers. A saved
// log (asOfEnd: a file, or a pipe whose newest line is over oldLog old:
// logs.Stats.EndsAt, the store's own time base) is judged as of its last
// line, not now: the note says so, with that line's time and how long ago
// it was, as a snapshot's says when it was taken, whatever its age: the
// countdowns of a log saved two minutes ago are two minutes stale. taught
// are the --dialect files' dialects: a log none of whose lines they read is
// told to check them line by line, not to write one.
func printReadNote(out io.Writer, st logs.Stats, lr *api.LogRead, asOfEnd bool, now time.Time, taught []logs.Dialect) {
	// Its sentences wrap between words on a terminal, as describe's do.
	width := screenWidth(out)
	say := func(s string) { writeProse(out, "", s, width) }
	say(strings.TrimSuffix(readSummary(lr), "\n"))
	if lr.Unreadable > 0 {
		exampleWidth := writerWidth(out)
		if width > 0 {
			exampleWidth = width
		}
		fmt.Fprintf(out, "  %s\n", cutExample(lr.Example, exampleWidth-2))
	}
	if st.Records == 0 {
		switch {
		case lr.Lines == 0:
			say("--from-logs: the log is empty: nothing to read")
		case lr.Unreadable == 0:
			say(noLineNote(taught))
		case len(taught) > 0:
			// A dialect of theirs may be why: say where to look.
			say("--from-logs: --explain-lines says, line by line, why each was not read (a failure line of --dialect must name its key: a key group, or key-field)")
		}
		return
	}
	say(readRange(st, asOfEnd, now))
}

// readRange is the note's sentence on what the read found: the log's time
// range and keys, the time its ages count from, and what its numbers lack
// (successes not logged, zap's sampling).
func readRange(st logs.Stats, asOfEnd bool, now time.Time) string {
	var w strings.Builder
	first, last := text.TimeOfDay(st.First), text.TimeOfDay(st.Last)
	if !sameDay(st.First, st.Last) {
		// A range over days says its dates: "10:00:00 to 23:59:59" of two
		// days apart reads as one afternoon.
		first, last = text.Timestamp(st.First), text.Timestamp(st.Last)
	}
	switch {
	case st.First.IsZero():
		// Every record's time was unknown: no range to give.
		fmt.Fprintf(&w, "--from-logs: %s, no failure line with a time I could read: ages, countdowns and retry times are unknown", text.Plural(st.Keys, "key"))
	case asOfEnd && now.Sub(st.Last) > oldLog:
		// A saved log is read as of its last line: say so, with the dates,
		// or "failing since 13s ago" reads as now on a log of last year.
		fmt.Fprintf(&w, "--from-logs: %s to %s, %s, read as of its last line: ages and countdowns count from %s, not from now; "+
			"every number is an estimate unless the log states it",
			text.Timestamp(st.First), strings.TrimSuffix(last, " UTC"), text.Plural(st.Keys, "key"), text.Timestamp(st.Last))
	case asOfEnd:
		// Minutes old, it still is not now: the countdowns would not move.
		fmt.Fprintf(&w, "--from-logs: %s to %s, %s, read as of its last line: ages and countdowns count from %s (%s), not from now; "+
			"every number is an estimate unless the log states it",
			first, last, text.Plural(st.Keys, "key"), text.TimeOfDay(st.Last), text.Ago(st.Last, now))
	default:
		fmt.Fprintf(&w, "--from-logs: %s to %s, %s: every number is an estimate unless the log states it",
			first, last, text.Plural(st.Keys, "key"))
	}
	if !st.Verbose {
		// A family that logs its successes where it logs its failures (Flux's
		// "Reconciliation finished"; dialect successes-logged) made Verbose
		// true with its first line.
		fmt.Fprint(&w, "; this log shows no successes")
	}
	if !st.SampledAt.IsZero() {
		fmt.Fprintf(&w, "; from %s the log shows zap's sampling (the first %d \"Reconciler error\" lines of a second, then 1 in 100): "+
			"failure counts since are low (--zap-devel or --zap-log-level=5 logs every line)",
			text.TimeOfDay(st.SampledAt), api.SampledLines)
	}
	w.WriteString(".")
	return w.String()
}

// sameDay says a and b fall on one UTC day.
func sameDay(a, b time.Time) bool {
	ay, am, ad := a.UTC().Date()
	by, bm, bd := b.UTC().Date()
	return ay == by && am == bm && ad == bd
}

// noLineNote is what to do about a log none of whose lines was read: check
// it is the controller's, or teach its lines with --dialect; with dialects
// given, find out why theirs matched no line (a regexp that does not match
// the message as its format reads it, or a failure that names no key),
// which --explain-lines says line by line.
func noLineNote(taught []logs.Dialect) string {
	if len(taught) == 0 {
		return "--from-logs: no line of it is a controller's I know: is it the controller's log, " +
			"from the right container (kubectl logs -c CONTAINER)? kubectl backoff dialects lists what I read; " +
			"an in-house controller's lines can be taught with --dialect FILE (docs/log-mode.md)"
	}
	names := make([]string, len(taught))
	for i, d := range taught {
		names[i] = strconv.QuoteToGraphic(d.Name)
	}
	return "--from-logs: no line of it is read, by a dialect I know or by --dialect's " + strings.Join(names, ", ") + ": --explain-lines says, line by line, what each line's message was and what its patterns lacked " +
		"(a regexp is matched against the message as the line's format reads it; a failure line must name its key: a key group, or key-field); " +
		"is it the controller's log, from the right container (kubectl logs -c CONTAINER)?"
}

// readSummary is the first line of the note: "--from-logs: read 1234
// lines; recognised: Flux (JSON) 3; 4 lines looked like failures but could
// not be read, e.g.:".
func readSummary(lr *api.LogRead) string {
	var b strings.Builder
	b.WriteString("--from-logs: ")
	for i, f := range explain.ReadFacts(lr) {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(f.Long)
	}
	b.WriteString("\n")
	return b.String()
}

// cutExample shortens s to width runes, marked with "…".
func cutExample(s string, width int) string {
	r := []rune(s)
	if width < 2 || len(r) <= width {
		return s
	}
	return string(r[:width-1]) + "…"
}

// writerWidth is w's width when it is a terminal, else 120 columns.
func writerWidth(w io.Writer) int {
	if f, ok := fileOf(w); ok {
		if width, _, err := term.GetSize(int(f.Fd())); err == nil && width > 0 {
			return width
		}
	}
	return 120
}

// printLogNote prints where a key's numbers come from, when they come from
// a log (explain.LogNote; c its controller, nil when not known), with the
// flag that sets where the read starts: --since for a TARGET's logs (stream
// true); a file or a pipe is read whole, from its first line (--since is
// refused there).
func printLogNote(w io.Writer, k api.Key, src *api.ListSource, c *api.Controller, stream bool) {
	n, ok := explain.LogNote(k, src, c)
	if !ok {
		return
	}
	fmt.Fprintln(w, "\nSource:")
	fmt.Fprintln(w, "  "+n.Source)
	if stream {
		fmt.Fprintln(w, "  "+n.Counted+" (--since).")
	} else {
		fmt.Fprintln(w, "  "+n.Counted+" (its first line).")
	}
	for _, l := range n.Lines {
		fmt.Fprintln(w, "  "+l)
	}
}
