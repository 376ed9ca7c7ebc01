package logs

import (
	"slices"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// history is a key's newest historySize attempts, oldest first, kept in a
// ring once full: a key failing all day adds an attempt at each of its
// lines, and shifting a full slice to add one moved 15 attempts (2 KB)
// every time, some 4% of a read. Its memory is what a slice's was.
type history struct {
	buf []api.Attempt
	// start is where in buf the oldest is: 0 until the ring is full and
	// has wrapped.
	start int
}

// len is how many attempts it holds.
func (h *history) len() int { return len(h.buf) }

// at is the i-th oldest attempt, in place.
func (h *history) at(i int) *api.Attempt { return &h.buf[(h.start+i)%len(h.buf)] }

// last is the newest attempt, in place; nil when there is none.
func (h *history) last() *api.Attempt {
	if len(h.buf) == 0 {
		return nil
	}
	return h.at(len(h.buf) - 1)
}

// add adds a as the newest, dropping the oldest when full.
func (h *history) add(a api.Attempt) {
	if len(h.buf) < historySize {
		if len(h.buf) == cap(h.buf) {
			h.grow()
		}
		h.buf = append(h.buf, a)
		return
	}
	h.buf[h.start] = a
	h.start = (h.start + 1) % len(h.buf)
}

// firstHistory is the room a key's first attempt makes: a key that
// failed once often never fails again, and one that failed twice is
// most often failing for a while.
const firstHistory = 2

// grow makes room for more attempts: firstHistory, then historySize at
// once. append's doubling (1, 2, 4, 8, 16) allocated 31 attempts (4.4 KB)
// for each key failing all day, 22 MB of a million-line read's 93; this
// allocates 18, and a key never holds more room than a full history's.
func (h *history) grow() {
	n := firstHistory
	if len(h.buf) > 0 {
		n = historySize
	}
	h.buf = slices.Grow(h.buf, n-len(h.buf))
}

// ordered puts buf in order (start 0), in place: for the rare changes
// that are not at the end (a late line's insert, a forget taking back the
// newest).
func (h *history) ordered() {
	if h.start == 0 {
		return
	}
	slices.Reverse(h.buf[:h.start])
	slices.Reverse(h.buf[h.start:])
	slices.Reverse(h.buf)
	h.start = 0
}

// dropLast takes the newest attempt out.
func (h *history) dropLast() {
	h.ordered()
	h.buf = h.buf[:len(h.buf)-1]
}

// insert puts a in time order (an attempt without a time stays where it
// came), keeping the newest historySize.
func (h *history) insert(a api.Attempt) {
	h.ordered()
	i := len(h.buf)
	for i > 0 && (h.buf[i-1].At.IsZero() || a.At.Before(h.buf[i-1].At)) {
		i--
	}
	h.buf = slices.Insert(h.buf, i, a)
	if len(h.buf) > historySize {
		h.buf = h.buf[len(h.buf)-historySize:]
	}
}

// slice is a copy of the attempts, oldest first; nil when none, as the
// wire's omitted history is.
func (h *history) slice() []api.Attempt {
	if len(h.buf) == 0 {
		return nil
	}
	out := make([]api.Attempt, 0, len(h.buf))
	out = append(out, h.buf[h.start:]...)
	return append(out, h.buf[:h.start]...)
}
