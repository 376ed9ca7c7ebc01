package instrument

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// TestHistoryMatchesModel drives a key's packed history with random attempts
// (errors from a small pool and always-new ones, every outcome and trigger,
// the limiter's late delay, the late classification) and compares it after
// every step with a plain list of the last 16 attempts.
func TestHistoryMatchesModel(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 12))
	var e entry[reconcile.Request]
	var model []api.Attempt
	now := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC).UnixNano()
	for op := range 20_000 {
		now = onGrid(now + rng.Int64N(int64(2*time.Second)))
		switch rng.IntN(5) {
		case 0: // the limiter's delay for the newest attempt
			d := time.Duration(rng.Int64N(int64(time.Hour)))
			e.setLastDelay(d)
			if n := len(model); n > 0 {
				model[n-1].Delay = metav1.Duration{Duration: spanOf(d).duration()}
			}
		case 1: // the newest error classified, or a stale classification
			if e.last() < 0 {
				continue
			}
			at := e.history[e.last()].at()
			if rng.IntN(3) == 0 {
				at-- // a newer attempt was recorded since: nothing changes
			}
			class := uint8(rng.IntN(4))
			e.setLastClass(at, class)
			if n := len(model); n > 0 && model[n-1].At.UnixNano() == at && (model[n-1].Error != "" || model[n-1].Class != "") {
				model[n-1].Class = classNames[class]
			}
		default:
			a := attempt{
				at:        now,
				delay:     time.Duration(rng.Int64N(int64(20 * time.Minute))),
				duration:  time.Duration(rng.Int64N(int64(time.Minute))),
				outcome:   uint8(rng.IntN(len(outcomeNames))),
				trigger:   uint8(rng.IntN(len(triggerNames))),
				preempted: rng.IntN(2) == 0,
			}
			// Every other run of 500 steps fails on a new message each
			// time: the error table is full and its entries are reused.
			churn := op/500%2 == 1
			if churn {
				a.outcome = outError
			}
			if a.outcome == outError || a.outcome == outTerminal {
				switch k := rng.IntN(4); {
				case churn && k > 0:
					a.err = internText(fmt.Sprintf("new error %d", op))
				case k == 0:
					a.err = internText(fmt.Sprintf("new error %d", op))
				case k == 1: // untracked: a failure without a message
				default:
					a.err = internText(fmt.Sprintf("pool error %d", rng.IntN(3)))
				}
				a.class = uint8(rng.IntN(4))
			}
			e.addAttempt(a)
			model = append(model, api.Attempt{
				At:        unixTime(now),
				Outcome:   outcomeNames[a.outcome],
				Delay:     metav1.Duration{Duration: spanOf(a.delay).duration()},
				Error:     a.err.String(),
				Duration:  metav1.Duration{Duration: spanOf(a.duration).duration()},
				Trigger:   triggerNames[a.trigger],
				Preempted: a.preempted,
				Class:     classNames[a.class],
			})
			if len(model) > historySize {
				model = model[1:]
			}
		}
		if got := e.attempts(); !reflect.DeepEqual(got, model) {
			t.Fatalf("op %d: history differs from the model:\ngot  %+v\nwant %+v", op, got, model)
		}
		if len(e.errs) > historySize {
			t.Fatalf("op %d: the error table holds %d errors, want at most %d", op, len(e.errs), historySize)
		}
	}
}

// TestHistoryKeepsOneErrorOnce: a key failing on one error keeps it once,
// however many attempts hold it.
func TestHistoryKeepsOneErrorOnce(t *testing.T) {
	var e entry[reconcile.Request]
	boom := internText("boom")
	for i := range 3 * historySize {
		e.addAttempt(attempt{at: int64(i) * int64(time.Second), err: boom, class: classTransient, outcome: outError})
	}
	if len(e.errs) != 1 {
		t.Errorf("the error table holds %d errors, want 1", len(e.errs))
	}
}
