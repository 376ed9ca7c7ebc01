package ui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Keys and error messages too wide for their column are cut in the middle,
// not at the end: keys of one controller share their start ("demo/conflicts-")
// and differ at the end, so a cut end makes every row read the same; an
// error says what went wrong at its end ("503 Service Unavailable").

// keyTail is how many cells at its end a key keeps when cut: the name's
// distinguishing suffix ("ved-00012"), at least half the room.
const keyTail = 8

// fitKey fits a key (or a pod name) in exactly w cells, cut in the middle
// when it must be: "demo/well…ved-00012". From 12 cells on the last
// keyTail cells are never cut.
func fitKey(s string, w int) string {
	room := w - 1 // the "…"
	tail := room - room/2
	if w >= 12 {
		tail = max(tail, keyTail)
	}
	return fitMiddle(s, w, tail, false)
}

// fitMessage fits an error message in exactly w cells, cut in the middle
// when it must be, keeping two thirds for its end, from a word's start:
// "sync with…503 Service Unavailable".
func fitMessage(s string, w int) string {
	room := w - 1
	return fitMiddle(s, w, room-room/3, true)
}

// fitMiddle pads s to exactly w cells or, when wider, keeps its first cells
// and its last tail cells around a "…"; with words, the end kept starts at
// a word (see wordStart). Cells, not bytes or runes: a wide rune at a cut
// goes whole, and the gap it leaves is padded.
func fitMiddle(s string, w, tail int, words bool) string {
	sw := ansi.StringWidth(s)
	room := w - 1
	if sw <= w || room < 2 || tail <= 0 || tail >= room {
		return fit(s, w)
	}
	end := cutLeft(s, sw, tail)
	if words {
		end = wordStart(s, end, room-max(1, room/4))
	}
	end = strings.TrimLeft(end, " ")
	head := strings.TrimRight(ansi.Truncate(s, room-ansi.StringWidth(end), ""), " ")
	return fit(head+"…"+end, w)
}

// cutLeft is the end of s (sw cells wide) in at most n cells.
func cutLeft(s string, sw, n int) string {
	end := ansi.TruncateLeft(s, sw-n, "")
	if ansi.StringWidth(end) > n { // a wide rune straddled the cut
		end = ansi.TruncateLeft(s, sw-n+1, "")
	}
	return end
}

// wordStart moves the start of end, a suffix of s cut inside a word, to a
// word's start: back to the start of the word cut if the end then fits in
// most cells, else forward past it, the cells freed going to the start of s.
func wordStart(s, end string, most int) string {
	rest, ok := strings.CutSuffix(s, end)
	if !ok || rest == "" || strings.HasPrefix(end, " ") || strings.HasSuffix(rest, " ") {
		return end
	}
	if i := strings.LastIndexByte(rest, ' '); i >= 0 && ansi.StringWidth(s[i+1:]) <= most {
		return s[i+1:]
	}
	if _, after, found := strings.Cut(end, " "); found && after != "" {
		return after
	}
	return end
}
