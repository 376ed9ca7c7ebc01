package instrument

import (
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// historySize is how many attempts a key remembers.
const historySize = api.HistorySize

// attempt is one reconcile (or forget) as it is recorded; the history keeps
// it packed in a slot.
type attempt struct {
	at        int64 // Unix nanoseconds, on the store's microsecond grid
	delay     time.Duration
	err       text
	duration  time.Duration
	outcome   uint8
	trigger   uint8
	class     uint8
	preempted bool
}

// slot is an attempt in 16 bytes, so that a full history of 16 is 256 (100,000
// keys hold 16 each). The time and every small field share one word; the
// error is an index into the key's table of the errors its history holds
// (errs), where a key failing on one error keeps that error once.
type slot struct {
	word     uint64
	delay    span
	duration span
}

// The word's layout, low bits first.
const (
	slotAtBits       = 52 // microseconds since 1970: until the year 2112
	slotOutcomeShift = slotAtBits
	slotTriggerShift = slotOutcomeShift + 3
	slotPreempted    = uint64(1) << (slotTriggerShift + 3)
	slotErrShift     = slotTriggerShift + 4 // 5 bits: 0 none, i+1 errs[i]
	slotAtMask       = uint64(1)<<slotAtBits - 1
	slotEnumMask     = 7
	slotErrMask      = uint64(0x1f) << slotErrShift
)

// errRef is an error a key's history holds, with the class it was given.
type errRef struct {
	text  text
	class uint8
}

// at is the slot's time in Unix nanoseconds. Before 1970 reads as 1970.
func (s slot) at() int64 { return int64(s.word&slotAtMask) * int64(time.Microsecond) }

func (s slot) outcome() uint8  { return uint8(s.word>>slotOutcomeShift) & slotEnumMask }
func (s slot) trigger() uint8  { return uint8(s.word>>slotTriggerShift) & slotEnumMask }
func (s slot) preempted() bool { return s.word&slotPreempted != 0 }
func (s slot) errIndex() int   { return int(s.word >> slotErrShift) }

// pack builds a's slot with err, its index in the key's errs (0 for none).
func (a *attempt) pack(err int) slot {
	at := uint64(max(a.at, 0)/int64(time.Microsecond)) & slotAtMask
	w := at | uint64(a.outcome)<<slotOutcomeShift | uint64(a.trigger)<<slotTriggerShift | uint64(err)<<slotErrShift
	if a.preempted {
		w |= slotPreempted
	}
	return slot{word: w, delay: spanOf(a.delay), duration: spanOf(a.duration)}
}

// addAttempt appends a to the history ring, overwriting the oldest once full.
func (e *entry[T]) addAttempt(a attempt) {
	at := len(e.history)
	if at == historySize {
		at = int(e.head)
		e.head = (e.head + 1) % historySize
	}
	s := a.pack(e.errSlot(a.err, a.class, at))
	if at == len(e.history) {
		e.history = append(e.history, s)
	} else {
		e.history[at] = s
	}
}

// errSlot returns the index (from 1) in e.errs of the error t of class, to
// be stored in history slot at: the index of an equal error already held,
// else an entry no other slot refers to, else a new one. Slot at itself is
// about to be overwritten, so its error does not count as referred to; the
// table therefore never holds more than historySize errors.
func (e *entry[T]) errSlot(t text, class uint8, at int) int {
	if t == (text{}) && class == classNone {
		return 0
	}
	for i, r := range e.errs {
		if r.text == t && r.class == class {
			return i + 1
		}
	}
	var used uint32
	for i, s := range e.history {
		if i != at {
			used |= 1 << s.errIndex()
		}
	}
	for i := range e.errs {
		if used&(1<<(i+1)) == 0 {
			e.errs[i] = errRef{t, class}
			return i + 1
		}
	}
	e.errs = append(e.errs, errRef{t, class})
	return len(e.errs)
}

// last is the index of the newest history slot, or -1.
func (e *entry[T]) last() int {
	n := len(e.history)
	switch {
	case n == 0:
		return -1
	case n < historySize:
		return n - 1
	}
	return (int(e.head) + historySize - 1) % historySize
}

// setLastDelay sets the newest attempt's delay: the limiter's choice, which
// comes after the reconciler's record of the outcome.
func (e *entry[T]) setLastDelay(d time.Duration) {
	if i := e.last(); i >= 0 {
		e.history[i].delay = spanOf(d)
	}
}

// setLastClass classifies the newest attempt's error if that attempt was
// recorded at at (a newer one keeps its own).
func (e *entry[T]) setLastClass(at int64, class uint8) {
	i := e.last()
	if i < 0 || e.history[i].at() != at {
		return
	}
	s := &e.history[i]
	if j := s.errIndex(); j > 0 {
		n := e.errSlot(e.errs[j-1].text, class, i)
		s.word = s.word&^slotErrMask | uint64(n)<<slotErrShift
	}
}

// lastOutcome is the outcome of the newest attempt in the history
// (outError, outRequeue, …), or noOutcome when none is recorded.
func (e *entry[T]) lastOutcome() uint8 {
	if i := e.last(); i >= 0 {
		return e.history[i].outcome()
	}
	return noOutcome
}

// noOutcome is lastOutcome's answer for a key with no attempt recorded.
const noOutcome uint8 = 0xff

// attempts returns the history oldest first, in its wire form.
func (e *entry[T]) attempts() []api.Attempt {
	out := make([]api.Attempt, 0, len(e.history))
	start := 0
	if len(e.history) == historySize {
		start = int(e.head)
	}
	for i := range e.history {
		s := e.history[(start+i)%len(e.history)]
		var err errRef
		if j := s.errIndex(); j > 0 {
			err = e.errs[j-1]
		}
		at := s.at()
		out = append(out, api.Attempt{
			At:        unixTime(at),
			Outcome:   outcomeNames[s.outcome()],
			Delay:     metav1.Duration{Duration: s.delay.duration()},
			Error:     err.text.String(),
			Duration:  metav1.Duration{Duration: s.duration.duration()},
			Trigger:   triggerNames[s.trigger()],
			Preempted: s.preempted(),
			Class:     classNames[err.class],
		})
		// The last forget's own entry, and the retry it triggered, say who
		// asked and why; older forgets keep only their outcome.
		if r := e.lastReset; r != nil && r.by == api.ResetForget &&
			((s.outcome() == outForgotten && at == r.at) || (s.trigger() == trigForget && s.outcome() != outForgotten && at >= r.at)) {
			out[len(out)-1].By, out[len(out)-1].Reason = r.user, r.reason
		}
	}
	return out
}
