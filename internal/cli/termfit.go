package cli

import (
	"bytes"
	"io"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"golang.org/x/term"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// On a terminal, what is printed fits its width, as kubectl's own output
// is meant to be read there: a table's rows are cut at the edge (its last
// column, the error, first; -o wide and a pipe get them whole), and the
// notes on stderr wrap at word boundaries instead of where the terminal
// happens to break them.

// terminalWidth is the width of the terminal w writes to, 0 when w is no
// terminal (a pipe, a file, a test's buffer).
func terminalWidth(w io.Writer) int {
	f, ok := fileOf(w)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return 0
	}
	width, _, err := term.GetSize(int(f.Fd()))
	if err != nil {
		return 0
	}
	return width
}

// printKeysFit is printKeys fitted to width cells (0: as wide as it
// comes): SOURCE, which -o wide and describe say too, is left out when the
// table would not fit with it; a key or a controller too long for the
// terminal (a log's, thousands of runes) is cut in its middle, to at most
// two fifths of the width and one fifth, so that the columns after it stay
// in view; and each row still too wide is cut with "…", its error first.
func printKeysFit(w io.Writer, l *inspector.KeyList, wide, pods bool, width int) {
	if width <= 0 || wide {
		printKeys(w, l, wide, pods)
		return
	}
	render := func(noSource bool, caps nameCaps) []string {
		var b bytes.Buffer
		tw := newTable(&b)
		writeKeyTableCols(tw, l, false, pods, true, noSource, caps)
		tw.Flush()
		return strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	}
	lines := render(false, wholeNames)
	if widest(lines) > width {
		lines = render(true, wholeNames)
	}
	if widest(lines) > width {
		lines = render(true, nameCaps{key: max(16, width*2/5), controller: max(10, width/5)})
	}
	for _, line := range lines {
		if ansi.StringWidth(line) > width {
			line = ansi.Truncate(line, width, "…")
		}
		io.WriteString(w, line+"\n")
	}
}

func widest(lines []string) int {
	n := 0
	for _, l := range lines {
		n = max(n, ansi.StringWidth(l))
	}
	return n
}

// wrapWriter wraps each whole line written at word boundaries to the
// width of the terminal below it (text.Wrap), measured at each line so a
// resize counts. A line written in parts (a prompt awaiting its answer)
// goes out as written: it is not held back for the rest.
type wrapWriter struct {
	w       io.Writer
	width   func() int
	midLine bool // a partial line went out: the rest of it passes through
}

// wrapToTerminal is w wrapping its lines to its terminal's width, or w
// itself when it is no terminal.
func wrapToTerminal(w io.Writer) io.Writer {
	if terminalWidth(w) == 0 {
		return w
	}
	return &wrapWriter{w: w, width: func() int { return terminalWidth(w) }}
}

// Unwrap is the writer written to: a caller asking whether it is a
// terminal asks of that one.
func (ww *wrapWriter) Unwrap() io.Writer { return ww.w }

func (ww *wrapWriter) Write(p []byte) (int, error) {
	s := string(p)
	var out strings.Builder
	for s != "" {
		line, rest, whole := strings.Cut(s, "\n")
		switch {
		case ww.midLine || !whole:
			out.WriteString(line)
		default:
			if width := ww.width(); width > 0 && ansi.StringWidth(line) > width {
				line = strings.Join(text.Wrap(line, width), "\n")
			}
			out.WriteString(line)
		}
		if whole {
			out.WriteString("\n")
		}
		ww.midLine = !whole
		s = rest
	}
	if _, err := io.WriteString(ww.w, out.String()); err != nil {
		return 0, err
	}
	return len(p), nil
}
