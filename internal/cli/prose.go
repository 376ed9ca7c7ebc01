package cli

import (
	"fmt"
	"io"

	"github.com/charmbracelet/x/ansi"
)

// The sentences of describe and why wrap, on a terminal, between words
// under their own indent: the terminal broke them mid-word at its edge
// ("nex\nt retry"). A pipe gets each sentence on one line, whole.

// screenWidth is the width of the terminal w writes to (0: none);
// tests of the terminal's layout replace it.
var screenWidth = terminalWidth

// writeProse writes s, one sentence, after indent; at a width, wrapped at
// its spaces, its later lines two cells further in (under the text after
// "! " of a finding, "> " of a step).
func writeProse(w io.Writer, indent, s string, width int) {
	writeHanging(w, indent, indent+"  ", s, width)
}

// writeField writes a field of why's sections, "  Found by:       " then
// its value; at a width the value wraps under itself.
func writeField(w io.Writer, label, value string, width int) {
	const at = 18 // "  Found by:       ": where every value starts
	head := fmt.Sprintf("  %-*s", at-2, label+":")
	writeHanging(w, head, fmt.Sprintf("%*s", at, ""), value, width)
}

// writeHanging writes s after first; at a width, wrapped at its spaces,
// its later lines after rest. A command it quotes in backticks is never
// broken: pasted, a line break inside it would run the half before it
// (forget without its --requeue). A word or a command wider than the room
// has a line of its own, which the terminal wraps.
func writeHanging(w io.Writer, first, rest, s string, width int) {
	room := width - ansi.StringWidth(first)
	if width <= 0 || room < 30 {
		fmt.Fprintf(w, "%s%s\n", first, s)
		return
	}
	line, prefix := "", first
	for _, word := range proseWords(s) {
		switch {
		case line == "":
			line = word
		case ansi.StringWidth(prefix+line+" "+word) <= width:
			line += " " + word
		default:
			fmt.Fprintf(w, "%s%s\n", prefix, line)
			prefix, line = rest, word
		}
	}
	fmt.Fprintf(w, "%s%s\n", prefix, line)
}

// proseWords splits s at its spaces, except those inside backticks: a
// quoted command is one word.
func proseWords(s string) []string {
	var words []string
	quoted := false
	start := 0
	for i, r := range s {
		switch {
		case r == '`':
			quoted = !quoted
		case r == ' ' && !quoted:
			if i > start {
				words = append(words, s[start:i])
			}
			start = i + 1
		}
	}
	if start < len(s) {
		words = append(words, s[start:])
	}
	return words
}
