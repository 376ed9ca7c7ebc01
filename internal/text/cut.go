package text

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Text too wide for its room is cut in the middle, not at the end: keys of
// one controller share their start ("demo/conflicts-") and differ at the
// end, and an error says what went wrong at its end ("503 Service
// Unavailable"). The CLI measures in runes (its columns are tab-aligned),
// a terminal UI in cells; both cut with CutMiddle.

// Measure is how a caller measures and cuts text: in runes (Runes), or in
// terminal cells for a UI.
type Measure struct {
	// Width is how wide s is.
	Width func(s string) int
	// Head is the longest start of s at most n wide; Tail the longest end.
	Head, Tail func(s string, n int) string
}

// Cells measures text in terminal cells, as a terminal UI lays it out.
// Cells, not bytes or runes: a wide rune at a cut goes whole, and the gap
// it leaves is the caller's to pad.
var Cells = Measure{
	Width: ansi.StringWidth,
	Head:  func(s string, n int) string { return ansi.Truncate(s, n, "") },
	Tail: func(s string, n int) string {
		sw := ansi.StringWidth(s)
		end := ansi.TruncateLeft(s, sw-n, "")
		if ansi.StringWidth(end) > n { // a wide rune straddled the cut
			end = ansi.TruncateLeft(s, sw-n+1, "")
		}
		return end
	},
}

// Runes measures text in runes.
var Runes = Measure{
	Width: func(s string) int { return len([]rune(s)) },
	Head: func(s string, n int) string {
		if r := []rune(s); len(r) > n {
			return string(r[:max(n, 0)])
		}
		return s
	},
	Tail: func(s string, n int) string {
		if r := []rune(s); len(r) > n {
			return string(r[len(r)-max(n, 0):])
		}
		return s
	},
}

// MessageTail is how much of room a message cut in its middle keeps for
// its end: two thirds, since a wrapped error's cause comes last
// ("PUT https://…/items/w1: 503 Service Unavailable").
func MessageTail(room int) int { return room - room/3 }

// CutMiddle fits s in at most n (as m measures) by keeping its start and
// its last tail around a "…". With words, the end kept starts at a word:
// back to the start of the word cut if the end then still leaves the start
// a quarter of the room, else forward past it, the room freed going to the
// start; and the spaces around the "…" are dropped. When n leaves no room
// for both a start and an end, s is cut at its end instead.
func CutMiddle(s string, n, tail int, words bool, m Measure) string {
	sw := m.Width(s)
	if sw <= n {
		return s
	}
	room := n - 1 // the "…"
	if room < 2 || tail <= 0 || tail >= room {
		return m.Head(s, max(room, 0)) + "…"
	}
	end := m.Tail(s, tail)
	if words {
		end = strings.TrimLeft(wordStart(s, end, room-max(1, room/4), m), " ")
	}
	head := m.Head(s, room-m.Width(end))
	if words {
		head = strings.TrimRight(head, " ")
	}
	return head + "…" + end
}

// wordStart moves the start of end, a suffix of s cut inside a word, to a
// word's start: back to the start of the word cut if the end then is at
// most most wide, else forward past it.
func wordStart(s, end string, most int, m Measure) string {
	rest, ok := strings.CutSuffix(s, end)
	if !ok || rest == "" || strings.HasPrefix(end, " ") || strings.HasSuffix(rest, " ") {
		return end
	}
	if i := strings.LastIndexByte(rest, ' '); i >= 0 && m.Width(s[i+1:]) <= most {
		return s[i+1:]
	}
	if _, after, found := strings.Cut(end, " "); found && after != "" {
		return after
	}
	return end
}

// OneLine flattens s to one line of at most n runes, "…" marking a cut in
// its middle (CutMiddle, keeping MessageTail for the end); n <= 0 keeps it
// whole. What it returns is Printable: it is text for a terminal.
func OneLine(s string, n int) string {
	s = Printable(strings.Join(strings.Fields(s), " "))
	if n <= 0 {
		return s
	}
	return CutMiddle(s, n, MessageTail(n-1), false, Runes)
}

// breakReach is how far, in runes, OneLineAtBreaks moves a cut's end to
// reach a break: past it the plain cut stands (one long token).
const breakReach = 12

// isBreak says r separates the parts a reader scans an error by: words,
// and a URL's or a name's parts.
func isBreak(r rune) bool {
	return r == ' ' || r == '/' || r == '.' || r == ':' || r == ',' || r == '-' || r == '='
}

// OneLineAtBreaks is OneLine whose cut falls between parts, not inside
// one: its start ends at a break and its end starts after one, when a
// break is within breakReach ("PUT …inventory.demo.svc/v1/items/x: 503",
// not "PUT http…//inventory"). It is never wider than OneLine's cut.
func OneLineAtBreaks(s string, n int) string {
	s = Printable(strings.Join(strings.Fields(s), " "))
	r := []rune(s)
	room := n - 1 // the "…"
	tail := MessageTail(room)
	if n <= 0 || len(r) <= n {
		return s
	}
	if room < 2 || tail <= 0 || tail >= room {
		// No room for a part at each end: OneLine's cut, on text already
		// flattened and escaped (escaping twice would show its escapes).
		return CutMiddle(s, n, tail, false, Runes)
	}
	// The end first, forward past the part it cuts into, else back to
	// that part's start (which the start then pays for); then the start,
	// back to the end of a part, in what room is left.
	from := len(r) - tail
	if j, ok := breakAfter(r, from, 1); ok {
		from = j
	} else if j, ok := breakAfter(r, from, -1); ok && room-(len(r)-j) >= 1 {
		from = j
	}
	head := room - (len(r) - from)
	for i := head; i > 0 && head-i <= breakReach; i-- {
		if isBreak(r[i-1]) {
			head = i
			break
		}
	}
	return strings.TrimRight(string(r[:head]), " ") + "…" + string(r[from:])
}

// OneLineStart is OneLine cut at its end, not in its middle: its start,
// ending at a break when one is within breakReach, then "…" ("failed to
// allocate…"). For a column too narrow for a start and an end both (under
// MinMiddleCut runes), where a middle cut leaves two stubs that say
// nothing ("failed…ran…"): a terminal shows the start of a line too long
// for it, and so does kubectl's table cut at the screen's edge.
func OneLineStart(s string, n int) string {
	s = Printable(strings.Join(strings.Fields(s), " "))
	r := []rune(s)
	if n <= 0 || len(r) <= n {
		return s
	}
	head := max(n-1, 0)
	for i := head; i > 0 && head-i <= breakReach && i > head/2 && !isBreak(r[head]); i-- {
		if isBreak(r[i-1]) {
			head = i
			break
		}
	}
	return strings.TrimRight(string(r[:head]), " ") + "…"
}

// MinMiddleCut is the fewest runes a message is cut in its middle in: under
// it, a middle cut keeps too little of either end to read (OneLineStart).
const MinMiddleCut = 20

// breakAfter looks from r[from] in direction dir (1 or -1), within
// breakReach, for a part's start: a rune after a break that is none.
func breakAfter(r []rune, from, dir int) (int, bool) {
	for j := from; j > 0 && j < len(r) && (j-from)*dir <= breakReach; j += dir {
		if isBreak(r[j-1]) && !isBreak(r[j]) {
			return j, true
		}
	}
	return 0, false
}
