package demo

import (
	"strings"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
)

// TestUnloggedSuccessesNotConsecutive: the conflicts controller's keys fail
// once when another writer touches them, and their 5ms retry succeeds, which
// the default verbosity does not log. Read from the log, a key with several
// failures — none consecutive on the endpoint — is not said to have
// consecutive failures, no attempt is said to be a retry or a pre-empting
// event, and no hot-loop ("another writer") finding is drawn from them.
func TestUnloggedSuccessesNotConsecutive(t *testing.T) {
	opts := DefaultOptions()
	// Few keys and a fast writer, so that each conflicts key is touched
	// every few seconds: its failures come within the log's guess of a
	// streak (endInferred), as B's did.
	opts.Seed, opts.Keys, opts.Speed = 7, 40, 4 // the writer every 0.5s
	r, srv, log := replayWithLog(t, opts, 5*time.Minute)
	endpoint := getKeys(t, srv, conflictsName)
	store := readReplayLog(t, r, log)
	var ctl *api.Controller
	cl := store.Controllers()
	for i := range cl.Controllers {
		if cl.Controllers[i].Name == conflictsName {
			ctl = &cl.Controllers[i]
		}
	}
	if ctl == nil || cl.Source == nil || cl.Source.Verbose {
		t.Fatalf("log's controller %q: %+v, source %+v; want one read without V(5) lines", conflictsName, ctl, cl.Source)
	}
	// The conflicts key with the most failures in the log.
	var got api.Key
	for key, want := range endpoint {
		d, err := store.Key(conflictsName, key)
		if err != nil || d.Key.Failures < got.Failures || d.Key.Failures == got.Failures && key > got.Key {
			continue
		}
		if want.Failures != 0 || want.TotalFailures < d.Key.Failures {
			t.Fatalf("%s: endpoint %d failures (%d in all); the log's %d failures must each have been followed by a success",
				key, want.Failures, want.TotalFailures, d.Key.Failures)
		}
		got = d.Key
	}
	if got.Failures < 3 {
		t.Fatalf("the most failures of a conflicts key in the log is %d; want a key failing several times between successes", got.Failures)
	}
	// Every attempt after the first ran on a touch, seconds off the retry
	// the log expects (the 5ms one that succeeded unlogged, or the far one
	// the log's count of 5ms·2^n puts it at): sooner or late, never a
	// retry, never an event that pre-empted a backoff.
	for i, a := range got.History[1:] {
		if a.Trigger != api.TriggerLate && a.Trigger != api.TriggerSooner || a.Preempted {
			t.Errorf("%s: attempt %d at %s: trigger %q (preempted %v); want sooner or late: a touch after a success not logged", got.Key, i+1,
				a.At.Format(time.TimeOnly), a.Trigger, a.Preempted)
		}
		if text := explain.TriggerText(a, &got.History[i]); !strings.Contains(text, "a success not logged") {
			t.Errorf("%s: attempt %d's trigger reads %q; want it to say a success may not be logged", got.Key, i+1, text)
		}
	}
	d := explain.Explain(explain.Input{Key: got, Controller: ctl, Source: cl.Source, Now: r.Clock.Now()})
	all := d.String()
	if strings.Contains(all, "consecutive failure") || !strings.Contains(all, "may not be consecutive") {
		t.Errorf("%s: the log's diagnosis states its %d failures as consecutive (the endpoint has 0), or does not say they may not be:\n%s",
			got.Key, got.Failures, all)
	}
	for _, f := range d.Findings {
		if f.Code == explain.FindingHotLoop || strings.Contains(f.Message, "another writer") || strings.Contains(f.Message, "doing its job") {
			t.Errorf("%s: finding %q drawn from inferred triggers: %s", got.Key, f.Code, f.Message)
		}
	}
}
