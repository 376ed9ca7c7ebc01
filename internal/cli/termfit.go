package cli

import (
	"bytes"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
	"golang.org/x/term"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
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
// comes), as top fits its table: LAST ERROR, the column that says why,
// keeps minErrorRoom cells where it can (at 80 columns it kept 8:
// "spec.sto…").
// To make room, the columns another command says go first, as kubectl's
// wide-only columns do: SOURCE (describe, -o wide), then DELAY (NEXT RETRY
// says when), then CONTROLLER when every row is one controller's; then a
// key or a controller too long (a log's, thousands of runes) is cut in
// its middle, the key to what the error lacks (not under 16 or 24 runes), the
// controller to a fifth of the width. The error then takes the room
// left, cut in its middle between its parts, keeping its start and more of
// its end, where a wrapped error names its cause; in a room under
// text.MinMiddleCut (several controllers' long names at 80 columns) its
// start alone, as a terminal shows a line too long for it ("failed to…",
// not "failed…ran…"). A row still too wide is cut at the edge with "…".
func printKeysFit(w io.Writer, l *inspector.KeyList, wide, pods bool, width int) {
	if width <= 0 || wide {
		printKeys(w, l, wide, pods)
		return
	}
	var b bytes.Buffer
	tw := newTable(&b)
	writeKeyTableCols(tw, l, false, pods, true, fitKeyCols(l, pods, true, width))
	tw.Flush()
	cut := &lineCutter{w: w, width: width}
	cut.Write(b.Bytes())
}

// fitKeyCols is the columns and cuts of l's table on a terminal of width
// cells (printKeysFit says how they are chosen): the zero value when the
// whole table fits. get -w chooses them once, from its first list, and
// keeps CONTROLLER unless one is named (oneOnly): its later rows may be
// another controller's.
func fitKeyCols(l *inspector.KeyList, pods, oneOnly bool, width int) keyCols {
	render := func(c keyCols) []string {
		var b bytes.Buffer
		tw := newTable(&b)
		writeKeyTableCols(tw, l, false, pods, true, c)
		tw.Flush()
		return strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	}
	if widest(render(keyCols{})) <= width {
		return keyCols{}
	}
	c := keyCols{noSource: true}
	narrower := []func(){
		func() { c.noDelay = true },
		func() { c.noController = oneOnly && oneController(l) },
	}
	for _, narrow := range narrower {
		if width-errorColumnAt(render(c)) >= minErrorRoom {
			break
		}
		narrow()
	}
	c.caps = keyCaps(l, c.noController, width, width-errorColumnAt(render(c)))
	// What is left, however little (several controllers' long names at
	// 80 columns): cut between the error's parts, rather than at the
	// edge, where its cause is.
	c.errRoom = max(width-errorColumnAt(render(c)), 12)
	return c
}

// lineCutter cuts each line written through it at width cells with "…":
// a row still too wide for the terminal (a key longer than the one its
// columns were chosen for) is cut at the edge rather than wrapped. A line
// written in parts is held until its end.
type lineCutter struct {
	w       io.Writer
	width   int
	partial []byte
}

func (c *lineCutter) Write(p []byte) (int, error) {
	c.partial = append(c.partial, p...)
	var out strings.Builder
	for {
		i := bytes.IndexByte(c.partial, '\n')
		if i < 0 {
			break
		}
		line := string(c.partial[:i])
		if ansi.StringWidth(line) > c.width {
			line = ansi.Truncate(line, c.width, "…")
		}
		out.WriteString(line + "\n")
		c.partial = c.partial[i+1:]
	}
	if _, err := io.WriteString(c.w, out.String()); err != nil {
		return 0, err
	}
	return len(p), nil
}

// keyCaps is how long a key and a controller's name are left when the
// error has room cells beside whole keys on a terminal of width cells. The
// key and the error share what the other columns leave: the key gives the
// error what it lacks to be whole, but keeps half of that share, and never
// under 24 runes in one controller's table (an object's key of that length
// stays whole: it says which row is which), 16 beside CONTROLLER (a cut key
// keeps both its ends). Giving the error only minErrorRoom let a log's
// 130-rune key leave every row's error 30 cells at 160 columns ("boom…
// cleared", "pods "web-5fc9f4bf6…d: pods=1", its "exceeded quota" lost). A
// controller's name past a fifth of the width is cut too, when the error
// lacks its minimum.
func keyCaps(l *inspector.KeyList, noController bool, width, room int) nameCaps {
	if room >= widestError(l) {
		return nameCaps{} // the error is whole beside whole keys
	}
	least := 16
	if noController {
		least = 24
	}
	keys := widestKey(l)
	share := room + keys
	caps := nameCaps{key: min(keys, max(least, share-widestError(l), share/2)), controller: text.MaxName}
	if share-caps.key < minErrorRoom {
		caps.controller = max(10, width/5)
	}
	return caps
}

// widestError is the widest LAST ERROR of l, whole on one line, in runes,
// its head's width at least.
func widestError(l *inspector.KeyList) int {
	n := len("LAST ERROR")
	for i := range l.Items {
		k := &l.Items[i]
		n = max(n, utf8.RuneCountInString(explain.NewKeyRow(&k.Key, k.Pod, l.ServerTime).Error(0)))
	}
	return n
}

// minErrorRoom is the fewest cells LAST ERROR keeps on a terminal: enough
// for an error's start and its cause ("sync with…503 Service Unavailable").
const minErrorRoom = 30

// errorColumnAt is where LAST ERROR starts in a table's header line.
func errorColumnAt(lines []string) int {
	i := strings.LastIndex(lines[0], "LAST ERROR")
	if i < 0 {
		return 0
	}
	return ansi.StringWidth(lines[0][:i])
}

// widestKey is the widest key of l as its cell shows it, escaped, in runes.
func widestKey(l *inspector.KeyList) int {
	n := 0
	for _, k := range l.Items {
		n = max(n, utf8.RuneCountInString(text.Cell(k.Key.Key, text.MaxName)))
	}
	return n
}

// oneController says every key of l is one controller's: its column
// repeats one name.
func oneController(l *inspector.KeyList) bool {
	for _, k := range l.Items {
		if k.Key.Controller != l.Items[0].Key.Controller {
			return false
		}
	}
	return len(l.Items) > 0
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
