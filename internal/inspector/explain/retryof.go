package explain

import (
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// A retry is not always the one the row before it set. On client-go's
// delaying queue an event that runs a key while its retry waits leaves
// that retry pending (the queue keeps the sooner of two times), so the
// retry that runs next is an older attempt's: in the demo's outage history
// "11:07:29 retry after 2m44s" came 13s after the row that set 2m44s, and
// 41s after the one at 11:06:48 that set its time.

// retryTolerance is how far off its scheduled time a retry may run and
// still be that attempt's: a log's lines carry whole seconds
// (docs/log-mode.md judges late and sooner by the same second).
const retryTolerance = time.Second

// RetryOf is, for hist[i] a retry that ran well before the time the row
// before it set, the index of the older attempt whose pending retry it
// was (the latest whose time plus delay is hist[i]'s, within a second).
// ok is false for any other attempt, and for a retry the row before set.
func RetryOf(hist []api.Attempt, i int) (j int, ok bool) {
	if i < 2 || i >= len(hist) || hist[i].Trigger != api.TriggerRetry {
		return 0, false
	}
	a, prev := hist[i], hist[i-1]
	if prev.Delay.Duration <= 0 || !a.At.Before(prev.At.Add(prev.Delay.Duration).Add(-retryTolerance)) {
		return 0, false
	}
	for j := i - 2; j >= 0; j-- {
		h := hist[j]
		if h.Delay.Duration <= 0 {
			continue
		}
		if off := a.At.Sub(h.At.Add(h.Delay.Duration)); off.Abs() <= retryTolerance {
			return j, true
		}
	}
	return 0, false
}

// TriggerCellAt is TriggerCell for hist[i]: a retry an older attempt set
// (RetryOf) is "retry of 11:06:48", the TIME of the row that set it, not
// "retry after" the delay of the row before, which it did not wait.
func TriggerCellAt(hist []api.Attempt, i int) string {
	if j, ok := RetryOf(hist, i); ok {
		return "retry of " + text.TimeOfDay(hist[j].At)
	}
	var prev *api.Attempt
	if i > 0 {
		prev = &hist[i-1]
	}
	return TriggerCell(hist[i], prev)
}
