package demo

import (
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// TestOutageLogHistoryLabels: a history read from the outage's log says
// why each attempt ran in agreement with its rows. Each row's "retry after"
// is the previous row's DELAY, and that delay is the one the attempt was
// judged against (docs/log-mode.md: an attempt more than 1s off its expected
// time, the previous row's time plus its delay, is late or sooner). When the
// log's pace shows the token bucket (a few retries into the outage), the
// pending retries are read anew at the bucket's ~10s: the failure rows
// that set them say so, or the next row, 10s later, would read "retry after
// 20ms".
func TestOutageLogHistoryLabels(t *testing.T) {
	endpoint, store, _ := outageFromLog(t)
	checked, bucketRetries := 0, 0
	for id, k := range endpoint {
		if k.Controller != outageName {
			continue
		}
		d, err := store.Key(k.Controller, k.Key)
		if err != nil {
			t.Errorf("%s: %v", id, err)
			continue
		}
		h := d.History
		for i := 1; i < len(h); i++ {
			a, prev := h[i], h[i-1]
			if prev.Outcome != api.OutcomeError {
				continue
			}
			expected := prev.At.Add(prev.Delay.Duration)
			off := a.At.Sub(expected)
			label := explain.TriggerText(a, &prev)
			checked++
			switch a.Trigger {
			case api.TriggerRetry:
				if want := "retry after " + text.FormatDuration(prev.Delay.Duration); label != want {
					t.Errorf("%s row %d: labelled %q; want %q, the previous row's delay", id, i, label, want)
				}
				if off.Abs() > time.Second {
					t.Errorf("%s row %d at %s: %q, but %v off the previous row's %s + %v: more than 1s off is late or sooner",
						id, i, a.At.Format(time.TimeOnly), label, off, prev.At.Format(time.TimeOnly), prev.Delay.Duration)
				}
				if prev.Delay.Duration >= 5*time.Second {
					bucketRetries++
				}
			case api.TriggerLate:
				if off <= time.Second {
					t.Errorf("%s row %d: late, but only %v after the previous row's %s + %v", id, i, off, prev.At.Format(time.TimeOnly), prev.Delay.Duration)
				}
			case api.TriggerSooner:
				if off >= -time.Second {
					t.Errorf("%s row %d: sooner, but only %v before the previous row's %s + %v", id, i, -off, prev.At.Format(time.TimeOnly), prev.Delay.Duration)
				}
			}
		}
	}
	// 100 keys fail for a minute at the bucket's pace: hundreds of retries,
	// most of them after the bucket's seconds.
	if checked < 300 || bucketRetries < 200 {
		t.Errorf("%d rows after a failure checked, %d retries after a delay of 5s or more; want a minute of 100 keys' retries at the bucket's pace", checked, bucketRetries)
	}
}
