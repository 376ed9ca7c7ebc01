// Package text is how kubectl-backoff writes text for a person, the same
// in every printer (`get`, `describe`, `why`, the TUI, the MCP server's
// summaries): the one escape of text from a cluster or a log, the one wrap,
// the cut in the middle, durations and countdowns, clock times and counts.
// It judges nothing (that is internal/inspector/explain's) and imports no
// package of this module, so every layer can use it.
//
//	fmt.Fprintf(w, "%s failing since %s: %s\n",
//		text.Plural(n, "key"), text.TimeOfDay(since), text.OneLine(msg, 80)) // msg escaped, cut in its middle
//	for _, l := range text.Wrap(text.OneLine(condition.Message, 0), 60) {
//		fmt.Fprintln(w, "  "+l) // whole, in cells, never cut
//	}
//	text.Countdown(key.NextRetryAt, serverTime) // "4m12s", "due", "-"
//
// Times are written in UTC and on the server's clock (every answer carries
// serverTime); a countdown is in whole seconds, rounded down, so a screen
// redrawn once a second never shows a tenth already gone.
package text
