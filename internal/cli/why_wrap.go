package cli

import (
	"fmt"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
	"io"
	"strings"
)

// A message of the cluster (a condition's, an event's) is wrapped, never
// cut: the cause is where a cut falls ("pods "web-…" is forbidden: exceeded
// quota: q, requested: pods=1" cut in its middle loses "exceeded quota").

// wrapText folds s, flattened to one line with its control characters
// escaped (text.Printable, the one escape), into lines of at most w runes, at spaces; a word longer than w
// is split.
func wrapText(s string, w int) []string {
	words := strings.Fields(text.Printable(s))
	if len(words) == 0 {
		return []string{""}
	}
	var lines []string
	line := ""
	for _, word := range words {
		for len([]rune(word)) > w {
			if line != "" {
				lines, line = append(lines, line), ""
			}
			r := []rune(word)
			lines, word = append(lines, string(r[:w])), string(r[w:])
		}
		switch {
		case line == "":
			line = word
		case len([]rune(line))+1+len([]rune(word)) <= w:
			line += " " + word
		default:
			lines, line = append(lines, line), word
		}
	}
	return append(lines, line)
}

// writeWrappedRow writes a tab-separated row whose last cell, msg, is
// wrapped at w: the lines after the first are rows of empty cells, so that
// the message stays in its column.
func writeWrappedRow(tw io.Writer, cells []string, msg string, w int) {
	lines := wrapText(msg, w)
	if msg == "" {
		lines = []string{"-"}
	}
	fmt.Fprintf(tw, "%s\t%s\n", strings.Join(cells, "\t"), lines[0])
	blank := strings.Repeat("\t", len(cells))
	for _, l := range lines[1:] {
		fmt.Fprintf(tw, "%s%s\n", blank, l)
	}
}
