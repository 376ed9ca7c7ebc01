package why

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode"

	"k8s.io/utils/clock"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// Watch is `why -w`: the object judged again on every change of it or of
// an object of its chain, and when the retry it waits for is due, until it
// is Current. Each new answer is emitted, as kubectl -w prints each change.
type Watch struct {
	// Ask reads the object again and answers for it (a fresh asker: no
	// cached Events, lists or logs).
	Ask func(ctx context.Context) (*Answer, error)
	// Changes starts watching a's object and the objects of its chain: a
	// value on the channel is a change; stop ends the watch.
	Changes func(ctx context.Context, a *Answer) (changed <-chan struct{}, stop func(), err error)
	// Clock times the re-judge at a retry. Defaults to the real clock.
	Clock clock.Clock
	// Emit receives each answer that differs from the one before (and
	// every answer after a retry was due).
	Emit func(Update)
}

// Update is one answer of a watch.
type Update struct {
	Answer *Answer
	// Cause is why it was judged again: "first", "changed", "retry due".
	Cause string
	// RetryWait says that the answer only waits for a controller's retry,
	// and when that is: the watch judges again then.
	RetryWait string
	// Done is set on the last update: the object is Current.
	Done bool
}

// retryMargin is how long after a retry is due the watch judges again:
// time for the controller to write what the retry did.
const retryMargin = 2 * time.Second

// Run emits the first answer, then one per change until the object is
// Current (nil) or ctx ends (nil: Ctrl-C is the user's way out, not an
// error). An error of Ask or Changes ends it.
func (w *Watch) Run(ctx context.Context) error {
	clk := w.Clock
	if clk == nil {
		clk = clock.RealClock{}
	}
	cause := "first"
	prev := ""
	for {
		a, err := w.Ask(ctx)
		if ctx.Err() != nil {
			return nil
		}
		if err != nil {
			return err
		}
		due, wait := retryWait(a, clk.Now())
		done := a.Verdict.Status == Current && (a.Chain == nil || len(a.Chain.Blockers()) == 0)
		if fp := fingerprint(a, wait); fp != prev || cause == "retry due" || done {
			w.Emit(Update{Answer: a, Cause: cause, RetryWait: wait, Done: done})
			prev = fp
		}
		if done {
			return nil
		}
		changed, stop, err := w.Changes(ctx, a)
		if err != nil {
			return err
		}
		var timer <-chan time.Time
		if !due.IsZero() {
			timer = clk.After(due.Sub(clk.Now()) + retryMargin)
		}
		select {
		case <-ctx.Done():
			stop()
			return nil
		case <-changed:
			cause = "changed"
		case <-timer:
			cause = "retry due"
		}
		stop()
	}
}

// retryWait is the earliest retry a's answer waits for, and the sentence
// saying so, when what blocks it is only a controller's backoff: the
// user's change waits for a retry (Retry), or the failing key's next retry.
// Zero when it waits for something else, or the retry is past.
func retryWait(a *Answer, now time.Time) (time.Time, string) {
	var due time.Time
	var say string
	consider := func(at time.Time, s string) {
		if at.After(now) && (due.IsZero() || at.Before(due)) {
			due, say = at, s
		}
	}
	for _, x := range append([]*Answer{a}, a.Blockers...) {
		if r := x.Retry; r != nil && r.Watches != "yes" && !r.NextRetry.IsZero() {
			who := r.Controller // "the replicaset-controller", "controller \"gadget\"", "its controller"
			if strings.HasSuffix(who, "-controller") {
				who = "the " + who
			}
			consider(r.NextRetry, fmt.Sprintf("waits only for a retry: the change to %s is seen at %s's next retry, at %s (in %s), or now with: %s",
				r.Changed.Ref(), who, text.TimeOfDay(r.NextRetry), text.Countdown(r.NextRetry, now), quoted(r.Kick)))
			continue
		}
		if x == a && a.backoffFrom != "" {
			continue // its blocker's backoff (blockingBackoff): said as the blocker's, below
		}
		if b := x.Backoff; b != nil && b.Key != nil && b.Key.State == api.StateBackoff && !b.Key.NextRetryAt.IsZero() {
			// The object itself is not something it waits for: "it waits
			// for configmap/web" was said of configmap/web.
			what, verb := "waits for "+x.Object.Ref()+", which", "retries"
			if x == a {
				what, verb = "waits for its next retry, which", "makes"
			}
			consider(b.Key.NextRetryAt, fmt.Sprintf("%s %s %s at %s (in %s, %s), backing off after %s%s",
				what, controllerWords(b.Controller), verb, text.TimeOfDay(b.Key.NextRetryAt), text.Countdown(b.Key.NextRetryAt, now),
				b.Precision(), explain.FailuresText(*b.Key, nil), retrySooner(b)))
		}
	}
	return due, say
}

// retrySooner is what the user can do rather than wait for b's retry: a
// log cannot reset the backoff (no endpoint to forget it through), so the
// kick that makes the watch retry it, or the fix of its cause; an endpoint
// that requeues, its forget.
func retrySooner(b *Backoff) string {
	fix := ""
	if b.Key.LastError != nil {
		fix = ", or fix what the error names"
	}
	switch {
	case b.RetryNow == "":
		return ""
	case b.Source == SourceLogs:
		return "; a backoff read from a log cannot be reset: retry now with " + quoted(b.RetryNow) + " (touches the object; the failure count is kept)" + fix
	}
	return "; or now with: " + quoted(b.RetryNow)
}

// fingerprint is what makes two answers the same to a watcher: what an
// update prints, its verdict, summary, steps and the retry it waits for,
// without their digits (a countdown, an age, a generated name's hash). A
// step that changes alone ("Change resourcequota/q" becoming the wait for
// a retry) is a new answer; a chain that changes below the same words is
// not (printed, it read as the same block twice).
func fingerprint(a *Answer, wait string) string {
	var b strings.Builder
	b.WriteString(a.Verdict.Status + "|" + a.Summary)
	for _, n := range a.Next {
		b.WriteString("|> " + n)
	}
	b.WriteString("|" + wait)
	return strings.Map(func(r rune) rune {
		if unicode.IsDigit(r) {
			return -1
		}
		return r
	}, b.String())
}

// Read is an object an answer was read from, with the resourceVersion it
// had then ("" for one that did not exist).
type Read struct {
	Object          Object
	ResourceVersion string
}

// Reads are the objects a was read from: the object and the objects of
// its chain (each once; not the cut's). A watch for `why -w` starts after
// the answer, from a list of each: an object whose resourceVersion is no
// longer the one read changed in between (a Deployment's ReplicaFailure
// cleared while the answer was computed, then nothing more: the change
// was never seen), and is a change already.
func (a *Answer) Reads() []Read {
	out := []Read{{Object: a.Object, ResourceVersion: a.rv}}
	if a.Chain == nil {
		return out
	}
	var walk func(n *Node)
	walk = func(n *Node) {
		if n != a.Chain.Root && !n.Seen && n.Omitted == 0 {
			rv := ""
			if n.u != nil {
				rv = n.u.GetResourceVersion()
			}
			out = append(out, Read{Object: n.Object, ResourceVersion: rv})
		}
		for _, c := range n.Below {
			walk(c)
		}
	}
	walk(a.Chain.Root)
	return out
}
