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
// It is flattened to one line and escaped (text.OneLine), then wrapped in
// terminal cells (text.Wrap, the TUI's wrap too).

// writeWrappedRow writes a tab-separated row whose last cell, msg, is
// wrapped at w: the lines after the first are rows of empty cells, so that
// the message stays in its column.
func writeWrappedRow(tw io.Writer, cells []string, msg string, w int) {
	lines := text.Wrap(text.OneLine(msg, 0), w)
	if msg == "" {
		lines = []string{"-"}
	}
	fmt.Fprintf(tw, "%s\t%s\n", strings.Join(cells, "\t"), lines[0])
	blank := strings.Repeat("\t", len(cells))
	for _, l := range lines[1:] {
		fmt.Fprintf(tw, "%s%s\n", blank, l)
	}
}
