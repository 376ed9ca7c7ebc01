package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/snapshot"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// diff's table: whole off a terminal, fitted to it on one.

// printChanges prints a row per key: what changed, the failures before and
// after, and the last error (before → after when it changed).
func printChanges(w io.Writer, changes []snapshot.Change) {
	w = text.PrintableWriter(w) // text from the cluster: see text.Printable
	width := screenWidth(w)
	c := changeCols{errRunes: fit(w, maxErrorColumn)}
	if width <= 0 {
		for _, l := range renderChanges(changes, c) {
			fmt.Fprintln(w, l)
		}
		return
	}
	// A terminal: a state that did not change is said once, then
	// CONTROLLER goes when every row is one controller's, until LAST ERROR
	// keeps minErrorRoom cells; the error takes the room left, its cause
	// kept, and a row still too wide is cut at the edge.
	lines := renderChanges(changes, c)
	for _, narrow := range []func(){func() { c.sameStateOnce = true }, func() { c.noController = oneControllerChanged(changes) }} {
		if widest(lines) <= width || width-errorColumnAt(lines) >= minErrorRoom {
			break
		}
		narrow()
		lines = renderChanges(changes, c)
	}
	if widest(lines) > width {
		c.errRunes = min(maxErrorColumn, max(width-errorColumnAt(lines), 12))
		lines = renderChanges(changes, c)
	}
	for _, l := range lines {
		if ansi.StringWidth(l) > width {
			l = ansi.Truncate(l, width, "…")
		}
		fmt.Fprintln(w, l)
	}
}

// changeCols is how a terminal too narrow for diff's whole table prints
// it: a state that did not change once ("backoff", not "backoff →
// backoff"), CONTROLLER left out, each error cut to errRunes (0: whole).
type changeCols struct {
	sameStateOnce, noController bool
	errRunes                    int
}

// renderChanges is diff's table, a line a row.
func renderChanges(changes []snapshot.Change, c changeCols) []string {
	var b strings.Builder
	tw := newTable(&b)
	head := "KEY\tCHANGE\tFAILS\tSTATE\tLAST ERROR"
	if !c.noController {
		head = "CONTROLLER\t" + head
	}
	fmt.Fprintln(tw, head)
	for _, ch := range changes {
		errText := lastErrorText(ch.After, ch.Before, c.errRunes)
		if strings.Contains(strings.Join(ch.Changes, ","), snapshot.ErrorChanged) {
			errText = lastErrorText(ch.Before, nil, c.errRunes) + " → " + lastErrorText(ch.After, nil, c.errRunes)
		}
		state := keyState(ch.Before) + " → " + keyState(ch.After)
		if c.sameStateOnce && keyState(ch.Before) == keyState(ch.After) {
			state = keyState(ch.After)
		}
		row := fmt.Sprintf("%s\t%s\t%s → %s\t%s\t%s", ch.Key, changeText(ch), failures(ch.Before), failures(ch.After), state, errText)
		if !c.noController {
			row = ch.Controller + "\t" + row
		}
		fmt.Fprintln(tw, row)
	}
	tw.Flush()
	return strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
}

// oneControllerChanged says every change is one controller's.
func oneControllerChanged(changes []snapshot.Change) bool {
	for _, c := range changes {
		if c.Controller != changes[0].Controller {
			return false
		}
	}
	return len(changes) > 0
}
