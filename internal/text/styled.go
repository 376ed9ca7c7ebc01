package text

// PrintableStyled is Printable for a frame the TUI drew: its own SGR
// sequences (ESC [ digits and semicolons m: colours, bold, reverse) pass,
// and every other character Printable escapes is escaped. It is the TUI's
// last line of defence, run on each whole frame: a name drawn by a path
// that forgot Printable can still colour text, but not set the title, link
// (OSC 8), send a DCS, move the cursor or clear the screen.
func PrintableStyled(s string) string { return escape(s, sgrLen) }

// sgrLen is the length of the SGR sequence s starts with, or 0.
func sgrLen(s string) int {
	if len(s) < 3 || s[0] != 0x1b || s[1] != '[' {
		return 0
	}
	for j := 2; j < len(s) && j < 64; j++ {
		switch c := s[j]; {
		case c >= '0' && c <= '9', c == ';', c == ':':
		case c == 'm':
			return j + 1
		default:
			return 0
		}
	}
	return 0
}
