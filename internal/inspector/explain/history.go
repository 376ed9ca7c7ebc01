package explain

import (
	"fmt"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// Thresholds of the hot loops a key's own history shows.
const (
	// LoopRepeats is how many times a pattern must repeat in a key's history
	// before it is called a loop.
	LoopRepeats = 3
	// EchoWithin is how soon after a successful reconcile an event must come
	// to count as the controller's own write coming back.
	EchoWithin = time.Second
)

// TriggerText says why an attempt ran, for a history or timeline: "first",
// "retry after 1.2s", "event (pre-empted the backoff)", "requeue-after",
// "forget by alice: db restored"; "-" when the server did not say. Read
// off a log without successes it says what the log shows and no more:
// "sooner than the retry after 5.12s: an event, or a success not logged".
func TriggerText(a api.Attempt, prev *api.Attempt) string {
	switch a.Trigger {
	case "":
		return "-"
	case api.TriggerRetry:
		if prev != nil && prev.Delay.Duration > 0 {
			return "retry after " + text.FormatDuration(prev.Delay.Duration)
		}
		return "retry"
	case api.TriggerEvent:
		if a.Preempted {
			return "event (pre-empted the backoff)"
		}
		return "event"
	case api.TriggerForget:
		return "forget" + byText(a.By, a.Reason)
	case api.TriggerSooner: // read off a log without successes: inferred
		return "sooner than the retry" + afterText(prev) + ": an event, or a success not logged"
	case api.TriggerNewStreak: // read off a log without successes: inferred
		return "a new streak: a fresh ramp, so a success not logged came before it"
	case api.TriggerLate:
		return "later than the retry" + afterText(prev) + ": a success not logged, then an event; or no free worker"
	}
	return a.Trigger
}

// TriggerCellWidth is the most runes a TriggerCell takes: "retry after
// 16m40s", client-go's longest delay.
const TriggerCellWidth = 18

// TriggerCell is TriggerText for a table's TRIGGER column, as short as
// kubectl's: a trigger inferred from a log without successes is a word and
// a "?" ("sooner?", "late?", "new streak?", as top's timeline marks them),
// whose sentence (some 70 runes, which pushed a history past 120 columns)
// TriggerLegend says once under the table; an event that pre-empted the
// backoff is "event (pre-empted)"; a forget's who and why, free text, are
// cut at TriggerCellWidth (the JSON keeps them whole: the attempt's by and
// reason). Any other trigger is its TriggerText.
func TriggerCell(a api.Attempt, prev *api.Attempt) string {
	if w := inferredWord(a.Trigger); w != "" {
		return w
	}
	if a.Trigger == api.TriggerEvent && a.Preempted {
		return "event (pre-empted)"
	}
	// Cut at its end: who forgot it comes first, the reason after.
	return text.CutMiddle(text.OneLine(TriggerText(a, prev), 0), TriggerCellWidth, 0, false, text.Runes)
}

// inferredWord is TriggerCell's word for a trigger read off a log without
// successes; "" for any other.
func inferredWord(trigger string) string {
	switch trigger {
	case api.TriggerSooner:
		return "sooner?"
	case api.TriggerLate:
		return "late?"
	case api.TriggerNewStreak:
		return "new streak?"
	}
	return ""
}

// TriggerLegend says what each inferred TriggerCell among hist means, once
// each, in the order they first appear: {"sooner?", "sooner than the retry:
// an event, or a success not logged"}. It is empty when hist has none.
func TriggerLegend(hist []api.Attempt) [][2]string {
	var out [][2]string
	seen := map[string]bool{}
	for _, a := range hist {
		w := inferredWord(a.Trigger)
		if w == "" || seen[w] {
			continue
		}
		seen[w] = true
		out = append(out, [2]string{w, TriggerText(api.Attempt{Trigger: a.Trigger}, nil)})
	}
	return out
}

// afterText is " after 5.12s", the delay the previous attempt set, or nothing.
func afterText(prev *api.Attempt) string {
	if prev == nil || prev.Delay.Duration <= 0 {
		return ""
	}
	return " after " + text.FormatDuration(prev.Delay.Duration)
}

// byText is " by alice: db restored", or as much of it as is known.
func byText(by, reason string) string {
	s := ""
	if by != "" {
		s = " by " + by
	}
	if reason != "" {
		s += ": " + reason
	}
	return s
}

// loops counts, in a key's history (oldest first), the two hot loops a
// history shows: echoes, attempts an event triggered right after the key's
// own successful reconcile (its own write coming back as a watch event); and
// preemptions, events that ran the key before the retry its backoff had
// scheduled.
type loops struct {
	echoes, preemptions int
}

// historyLoops reads the loops off a history.
func historyLoops(h []api.Attempt) loops {
	var l loops
	for i, a := range h {
		if a.Trigger != api.TriggerEvent {
			continue
		}
		if a.Preempted {
			l.preemptions++
		}
		if i == 0 {
			continue
		}
		p := h[i-1]
		if p.Outcome == api.OutcomeSuccess && a.At.Sub(p.At.Add(p.Duration.Duration)) < EchoWithin {
			l.echoes++
		}
	}
	return l
}

// loopFindings turns a history's loops into findings.
func loopFindings(h []api.Attempt) []Finding {
	l := historyLoops(h)
	var out []Finding
	if l.echoes >= LoopRepeats {
		out = append(out, Finding{Code: FindingHotLoop, Message: fmt.Sprintf(
			"A hot loop: %d of the last %d attempts ran on a watch event less than %s after the key's own successful reconcile. "+
				"The controller's own write (often a status update) comes back as an event and triggers it again: "+
				"write only what changed, or ignore such events with a predicate (e.g. GenerationChangedPredicate).",
			l.echoes, len(h), text.FormatDuration(EchoWithin))})
	}
	if l.preemptions >= LoopRepeats {
		out = append(out, Finding{Code: FindingHotLoop, Message: fmt.Sprintf(
			"Watch events pre-empted this key's backoff %s in the last %d attempts: each event retries it at once, "+
				"so it fails at the rate the object changes, not the rate backoff allows. Find what keeps changing the object "+
				"(another writer fighting this controller?), or ignore changes that do not touch the spec (GenerationChangedPredicate).",
			times(l.preemptions), len(h))})
	}
	return out
}

// times is "once", "twice", "5 times".
func times(n int) string {
	switch n {
	case 1:
		return "once"
	case 2:
		return "twice"
	}
	return fmt.Sprintf("%d times", n)
}
