package explain_test

import (
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
)

// docRow is a row of docs/states.md's table: its state, its cause, and
// what its describe column quotes as printed, and as never printed
// (`never "looks permanent"`).
type docRow struct {
	state, cause  string
	quotes, never []string
}

// statesDocRows reads docs/states.md's table.
func statesDocRows(t *testing.T) []docRow {
	t.Helper()
	md, err := os.ReadFile("../../../docs/states.md")
	if err != nil {
		t.Fatal(err)
	}
	var rows []docRow
	for line := range strings.SplitSeq(string(md), "\n") {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "| "), " | ")
		r := docRow{state: strings.Trim(cells[0], "`"), cause: cells[1]}
		for _, q := range regexp.MustCompile(`(never )?"([^"]+)"`).FindAllStringSubmatch(cells[len(cells)-1], -1) {
			if q[1] != "" {
				r.never = append(r.never, q[2])
			} else {
				r.quotes = append(r.quotes, q[2])
			}
		}
		rows = append(rows, r)
	}
	return rows
}

// quoteRE is a quote of the doc as a pattern: "…" stands for any text
// (" …" for the rest of a sentence, its punctuation too), and n for a
// number ("Gave up after n retries").
func quoteRE(q string) *regexp.Regexp {
	re := strings.ReplaceAll(strings.ReplaceAll(regexp.QuoteMeta(q), " …", ".*"), "…", ".+")
	return regexp.MustCompile(strings.ReplaceAll(re, " n ", ` \d+ `))
}

// TestStatesDocQuotesWhatDescribePrints: every quote of docs/states.md's
// describe column is what describe prints (Explain's text, "…" standing
// for any text) of a key in that row's state and cause, for every row:
// a row the table gains, or a sentence reworded on one side only, fails
// here. The queued rows are also checked the other way
// (TestStatesDocQuotesWhatQueuedPrints).
func TestStatesDocQuotesWhatDescribePrints(t *testing.T) {
	// minuteController's limiter is per-item exponential from a minute, as
	// the verdict truth table's controllers are.
	minuteController := controllerWith(api.LimiterComponent{Name: api.SourceItemExponential, BaseDelay: dur(time.Minute), MaxDelay: dur(1000 * time.Second)})
	transient := &api.ErrorRecord{Message: "dial tcp 10.0.0.7:443: connect: connection refused", At: at(-time.Second), Class: api.ClassTransient}
	// backoff is one failure into a minute's per-item exponential backoff.
	backoff := api.Key{State: api.StateBackoff, Failures: 1, TotalFailures: 1, Delay: dur(time.Minute), DelaySource: api.SourceItemExponential,
		NextRetryAt: at(59 * time.Second), LastError: transient, SameErrorCount: 1, FirstFailureAt: at(-time.Second), LastReconcileAt: at(-time.Second)}
	requeue := backoff
	requeue.LastError, requeue.SameErrorCount = nil, 0
	requeue.History = []api.Attempt{{At: at(-time.Second), Outcome: api.OutcomeRequeue, Trigger: api.TriggerFirst}}
	earlier := backoff
	earlier.Failures, earlier.TotalFailures, earlier.Delay, earlier.EarlierRetry = 2, 2, dur(2*time.Minute), true
	lasting := backoff
	lasting.Failures, lasting.TotalFailures, lasting.SameErrorCount, lasting.FirstFailureAt = 6, 6, 6, at(-10*time.Minute)
	lasting.Delay, lasting.NextRetryAt = dur(32*time.Minute), at(31*time.Minute)
	// preempted(n) failed n times on the same error, every attempt after
	// the first run by a watch event before its retry was due.
	preempted := func(n int) api.Key {
		k := lasting
		k.Failures, k.TotalFailures, k.SameErrorCount = n, n, n
		for i := range n {
			a := api.Attempt{At: at(time.Duration(i-n) * time.Minute), Outcome: api.OutcomeError, Error: transient.Message, Trigger: api.TriggerEvent, Preempted: i > 0}
			if i == 0 {
				a.Trigger = api.TriggerFirst
			}
			k.History = append(k.History, a)
		}
		return k
	}
	forgotten := backoff
	forgotten.Failures, forgotten.TotalFailures = 0, 9
	forgotten.LastReset = &api.Reset{At: at(-500 * time.Millisecond), By: api.ResetForget, Failures: 9}
	spread := forgotten
	spread.DelaySource, spread.Delay, spread.NextRetryAt = api.SourceSpread, dur(20*time.Second), at(19*time.Second)
	spread.LastReset = &api.Reset{At: at(-500 * time.Millisecond), By: api.ResetForget, Failures: 9, User: "alice", Reason: "inventory back"}
	gaveUp := api.Key{State: api.StateFailed, TotalFailures: 3, LastReconcileAt: at(-time.Minute), LastError: transient, SameErrorCount: 3,
		LastReset: &api.Reset{At: at(-time.Minute), By: api.ResetGaveUp, Failures: 3}}
	gaveUpLog := gaveUp
	gaveUpLog.Source, gaveUpLog.LastReset = api.SourceLogs, &api.Reset{At: at(-time.Minute), By: api.ResetGaveUp, Failures: 1}
	// gaveUpKept's give-up line stated the count, 4 before it: kept.
	gaveUpKept := gaveUpLog
	gaveUpKept.Failures, gaveUpKept.TotalFailures = 5, 3
	gaveUpKept.LastReset = &api.Reset{At: at(-time.Minute), By: api.ResetGaveUp, Failures: 5, Kept: true}

	// keys are, for each row (by its state and the first words of its
	// cause), keys describe explains as that row says.
	keys := map[string][]api.Key{
		"backoff the reconcile returned an error": {backoff},
		"backoff `Requeue: true`":                 {requeue},
		"backoff an event ran the key":            {earlier},
		"backoff a transient error that lasts":    {lasting, preempted(6)},
		"backoff watch events run the key":        {preempted(4)},

		"backoff forgotten without a retry":     {forgotten},
		"backoff requeued by `forget --requeue": {spread},
		"scheduled `RequeueAfter`": {{State: api.StateScheduled, Delay: dur(time.Minute), DelaySource: api.SourceRequeueAfter,
			NextRetryAt: at(time.Minute), LastReconcileAt: at(0), LastSuccessAt: at(0)}},
		"scheduled a success while": {{State: api.StateScheduled, DelaySource: api.SourceItemExponential, Delay: dur(time.Minute),
			NextRetryAt: at(30 * time.Second), LastSuccessAt: at(-time.Second), LastReconcileAt: at(-time.Second), TotalFailures: 1}},
		"queued ready, every worker busy": {{State: api.StateQueued, QueuedAt: at(-2 * time.Second)},
			{State: api.StateQueued, QueuedAt: at(-2 * time.Second), LastEventAt: at(-2 * time.Second)}},
		"queued its retry": {{State: api.StateQueued, Failures: 2, DelaySource: api.SourceItemExponential, NextRetryAt: at(-time.Second),
			LastError: errAt("boom", -2*time.Second)},
			{State: api.StateQueued, DelaySource: api.SourceRequeueAfter, NextRetryAt: at(-time.Second)}},
		"running a reconcile in progress": {{State: api.StateRunning, StartedAt: at(-3 * time.Second)}},
		"failed a terminal error": {{State: api.StateFailed, Failures: 1, TotalFailures: 1, LastReconcileAt: at(-time.Minute),
			LastError: &api.ErrorRecord{Message: "spec.size must be positive", At: at(-time.Minute), Class: api.ClassPermanent}}},
		"failed the controller gave up": {gaveUp, gaveUpLog},
		"failed a give-up line":         {gaveUpKept},
		"idle the last reconcile":       {{State: api.StateIdle, Reconciles: 1, LastSuccessAt: at(-time.Minute), LastReconcileAt: at(-time.Minute)}},
	}
	used := map[string]bool{}
	for _, row := range statesDocRows(t) {
		if len(row.quotes)+len(row.never) == 0 {
			continue
		}
		var name string
		for n := range keys {
			if strings.HasPrefix(row.state+" "+row.cause, n) {
				name = n
			}
		}
		if name == "" {
			t.Errorf("docs/states.md's row %s %q quotes %q, and no key of this test is in that row: add one", row.state, row.cause, row.quotes)
			continue
		}
		used[name] = true
		var printed []string
		for _, k := range keys[name] {
			d := explain.Explain(explain.Input{Key: k, Controller: minuteController, Now: explainNow})
			if string(d.State) != row.state {
				t.Errorf("%s: the key's state is %s, want %s", name, d.State, row.state)
			}
			printed = append(printed, d.String())
		}
		for _, q := range row.quotes {
			re := quoteRE(q)
			if !re.MatchString(strings.Join(printed, "\n")) {
				t.Errorf("docs/states.md's row %s %q quotes %q; its keys print:\n%s", row.state, row.cause, q, strings.Join(printed, "\n---\n"))
			}
		}
		for _, q := range row.never {
			if quoteRE(q).MatchString(strings.Join(printed, "\n")) {
				t.Errorf("docs/states.md's row %s %q says describe never prints %q; its keys print:\n%s", row.state, row.cause, q, strings.Join(printed, "\n---\n"))
			}
		}
	}
	for n := range keys {
		if !used[n] {
			t.Errorf("no row of docs/states.md is %q any more: drop its keys here", n)
		}
	}
}
