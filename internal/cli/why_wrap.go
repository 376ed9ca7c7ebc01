package cli

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// A message of the cluster (a condition's, an event's) is wrapped, never
// cut: the cause is where a cut falls ("pods "web-…" is forbidden: exceeded
// quota: q, requested: pods=1" cut in its middle loses "exceeded quota").
// It is flattened to one line and escaped (text.OneLine), then wrapped in
// terminal cells (text.Wrap, the TUI's wrap too): piped, at messageWidth;
// on a terminal, in what the table's other columns leave of its width (at
// 80 columns a fixed 80 made every line wrap twice, once by the terminal).

// minMessageRoom is the narrowest a MESSAGE column is wrapped to: under
// it (a condition's long reason at 80 columns), each message goes under
// its row instead, indented by messageIndent, as wide as the screen.
const (
	minMessageRoom = 30
	messageIndent  = "      "
)

// writeMessageTable writes a table whose last column, MESSAGE (or any
// title: describe's History has ERROR), holds msgs[i] for rows[i] (the
// cells before it); head's cells are tab-separated, MESSAGE last. screen
// is the terminal's width (0: piped).
func writeMessageTable(w io.Writer, head string, rows [][]string, msgs []string, screen int) {
	room := messageWidth
	if screen > 0 {
		room = screen - messageColumn(head, rows)
	}
	if room >= minMessageRoom {
		tw := newTable(w)
		fmt.Fprintln(tw, head)
		for i, r := range rows {
			writeWrappedRow(tw, r, msgs[i], room)
		}
		tw.Flush()
		return
	}
	writeMessagesUnder(w, head, rows, msgs, screen)
}

// messageColumn is the cell MESSAGE (head's last title) starts at in the
// table of head and rows (the cells before it): what a screen leaves it is
// the rest of its width.
func messageColumn(head string, rows [][]string) int {
	var b bytes.Buffer
	tw := newTable(&b)
	fmt.Fprintln(tw, head)
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t-\n", strings.Join(r, "\t"))
	}
	tw.Flush()
	first, _, _ := strings.Cut(b.String(), "\n")
	return strings.LastIndex(first, head[strings.LastIndex(head, "\t")+1:])
}

// writeMessagesBeside writes rows as one table with msgs[i] as each row's
// last cell, "-" where empty: the table piped, or where MESSAGE has room.
func writeMessagesBeside(w io.Writer, head string, rows [][]string, msgs []string) {
	tw := newTable(w)
	fmt.Fprintln(tw, head)
	for i, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\n", strings.Join(r, "\t"), dash(msgs[i]))
	}
	tw.Flush()
}

// writeMessagesUnder writes rows as a table without head's MESSAGE (last)
// column, each msgs[i] under its row, indented by messageIndent and
// wrapped at the screen's width: where the other columns leave MESSAGE
// too little room. The rows are a table of their own: a line of one cell
// inside the tab writer would end its columns there.
func writeMessagesUnder(w io.Writer, head string, rows [][]string, msgs []string, screen int) {
	var b bytes.Buffer
	tw := newTable(&b)
	fmt.Fprintln(tw, head[:strings.LastIndex(head, "\t")])
	for _, r := range rows {
		fmt.Fprintln(tw, strings.Join(r, "\t"))
	}
	tw.Flush()
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	fmt.Fprintln(w, lines[0])
	for i, l := range lines[1:] {
		fmt.Fprintln(w, l)
		if msgs[i] == "" {
			continue
		}
		for _, m := range text.Wrap(text.OneLine(msgs[i], 0), screen-len(messageIndent)) {
			fmt.Fprintln(w, messageIndent+m)
		}
	}
}

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
