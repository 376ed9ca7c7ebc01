package cli

import "io"

// fit is how many runes a message may take in w: n on a terminal, where a
// line must fit the screen; 0 (whole) elsewhere, as kubectl prints piped
// output: a file or a grep reads the whole message, and the detail that
// matters (the object named at the end of "… is not present") is not cut
// from its middle.
func fit(w io.Writer, n int) int {
	if onTerminal(w) {
		return n
	}
	return 0
}

// onTerminal says whether w is a terminal; tests of the terminal's layout
// replace it.
var onTerminal = writerIsTerminal
