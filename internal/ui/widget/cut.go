package widget

import "github.com/kubectl-backoff/kubectl-backoff/internal/text"

// Keys and error messages too wide for their column are cut in the middle,
// as the CLI cuts them (text.CutMiddle), measured in terminal cells.

// FitKey fits a key (or a pod name) in exactly w cells as get's table
// shows it (text.CellIn, measured in cells): escaped, tabs and newlines
// too, cut in the middle when it must be: "demo/well…ved-00012". From 12
// cells on its last 8 cells are never cut.
func FitKey(s string, w int) string {
	if w <= 0 {
		return ""
	}
	return Fit(text.CellIn(s, w, text.Cells), w)
}

// FitMessage fits an error message in exactly w cells, cut where it says
// least (text.CutError): generated names shortened, whole words kept,
// those that name the cause first ("…pods "web-…" is forbidden: exceeded
// quota: q,…"; "sync with…503 Service Unavailable").
func FitMessage(s string, w int) string {
	if w <= 0 {
		return ""
	}
	return Fit(text.CutError(s, w, text.Cells), w)
}

// fitMiddle pads s to exactly w cells or, when wider, cuts it in the
// middle keeping tail cells of its end (see text.CutMiddle).
func fitMiddle(s string, w, tail int, words bool) string {
	if w <= 0 {
		return ""
	}
	return Fit(text.CutMiddle(s, w, tail, words, text.Cells), w)
}
