package widget

import "github.com/kubectl-backoff/kubectl-backoff/internal/text"

// Keys and error messages too wide for their column are cut in the middle,
// as the CLI cuts them (text.CutMiddle), measured in terminal cells.

// keyTail is how many cells at its end a key keeps when cut: the name's
// distinguishing suffix ("ved-00012"), at least half the room.
const keyTail = 8

// FitKey fits a key (or a pod name) in exactly w cells, cut in the middle
// when it must be: "demo/well…ved-00012". From 12 cells on the last
// keyTail cells are never cut.
func FitKey(s string, w int) string {
	room := w - 1 // the "…"
	tail := room - room/2
	if w >= 12 {
		tail = max(tail, keyTail)
	}
	return fitMiddle(s, w, tail, false)
}

// FitMessage fits an error message in exactly w cells, cut in the middle
// when it must be, keeping two thirds for its end, from a word's start:
// "sync with…503 Service Unavailable".
func FitMessage(s string, w int) string {
	return fitMiddle(s, w, text.MessageTail(w-1), true)
}

// fitMiddle pads s to exactly w cells or, when wider, cuts it in the
// middle keeping tail cells of its end (see text.CutMiddle).
func fitMiddle(s string, w, tail int, words bool) string {
	if w <= 0 {
		return ""
	}
	return Fit(text.CutMiddle(s, w, tail, words, text.Cells), w)
}
