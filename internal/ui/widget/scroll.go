package widget

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// Scrolling, one way for every view that scrolls: the group view and the
// pod picker move a cursor over rows, and the rows shown follow it; the
// detail and help views move a text. Each view clamps in its update, as
// bubbles' viewport does in SetYOffset, so that every key moves what is
// shown and no offset points past the end.

// ScrollKeys move a cursor or a text, in every view that scrolls.
type ScrollKeys struct{ Up, Down, PageUp, PageDown, Home, End key.Binding }

// ScrollBy moves pos by the scroll key msg, if it is one: a line, page
// lines, or to either end (n: the view's clamp brings it back in range).
func ScrollBy(k ScrollKeys, msg tea.KeyPressMsg, pos *int, page, n int) {
	switch {
	case key.Matches(msg, k.Up):
		*pos--
	case key.Matches(msg, k.Down):
		*pos++
	case key.Matches(msg, k.PageUp):
		*pos -= page
	case key.Matches(msg, k.PageDown):
		*pos += page
	case key.Matches(msg, k.Home):
		*pos = 0
	case key.Matches(msg, k.End):
		*pos = n
	}
}

// SelectedMark is the two cells that start a row of every list: "› " on
// the selected one, so that the selection shows without colour too (top's
// table, the picker, the groups, `top --for`, the chain, the fleet), "  "
// on the others and the title row.
func SelectedMark(selected bool) string {
	if selected {
		return "› "
	}
	return "  "
}

// ClampRows returns cursor kept on one of n rows, and offset, the first row
// shown, moved as little as keeps the cursor among the rows shown; a list
// that fills the screen leaves no empty rows below its last.
func ClampRows(cursor, offset, n, rows int) (int, int) {
	cursor = max(0, min(cursor, n-1))
	if cursor < offset {
		offset = cursor
	}
	if cursor >= offset+rows {
		offset = cursor - rows + 1
	}
	return cursor, max(0, min(offset, n-rows))
}

// ClampText returns the offset of a text of n lines, room shown at a
// time, kept within the text: the last screenful ends at its last line
// (the "more lines" note takes the bottom line); a text that fits does not
// scroll.
func ClampText(scroll, n, room int) int {
	if n <= room {
		return 0
	}
	return max(0, min(scroll, n-room+1))
}

// ScrolledText is what shows of lines from scroll on, in room lines: when
// more follow, the bottom line says how many.
func ScrolledText(lines []string, scroll, room int, s *Styles) []string {
	lines = lines[min(scroll, len(lines)):]
	if len(lines) > room && room > 1 {
		lines = append(lines[:room-1], s.Dim.Render(fmt.Sprintf("↓ %d more lines: j/k or pgdn to scroll", len(lines)-room+1)))
	}
	return lines
}
