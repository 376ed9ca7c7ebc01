package explain

import (
	"fmt"
	"strings"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// Thresholds for the anti-patterns Explain flags.
const (
	// PermanentAfter is how many identical consecutive errors make a lasting
	// failure: a transient one gets the outage advice, an unknown one that
	// also lasts LongFailure with no change to the object looks permanent.
	PermanentAfter = 5
	// LongFailure is how long an error of unknown class must last, with no
	// change to the object, before it looks permanent.
	LongFailure = 5 * time.Minute
	// HotLoopKeys is how many keys with a RequeueAfter under a second make a hot loop.
	HotLoopKeys = 10
	// HerdKeys is how many unpaced keys due within one second make a retry herd.
	HerdKeys = 20
	// LongReconcile is when a running reconcile is worth pointing out.
	LongReconcile = 10 * time.Second
)

// Finding codes: stable names for the anti-patterns, for UIs to style.
const (
	FindingPermanent = "looks-permanent"
	// FindingTransient is a transient error that lasts: not an anti-pattern,
	// advice to leave the backoff to its job.
	FindingTransient  = "dependency-down"
	FindingHotLoop    = "hot-loop"
	FindingHerd       = "retry-herd"
	FindingThrottled  = "bucket-empty"
	FindingUnobserved = "edit-not-observed"
	// FindingLogSampled is a log read past the rate at which the
	// controller's logger drops lines: its counts are lower bounds.
	FindingLogSampled = "log-sampled"
)

// retryNowFor is how to retry the key at once, and what to say after it:
// forget for a key an endpoint serves, when that endpoint can requeue it
// (its queue instrumented, forget allowed: otherwise the forget keeps the
// pending retry's time); else kick, which touches its object — for a key
// read from a log through the workload whose log was read (Session.Target),
// as a log cannot reach the queue. The key is named (a Kubernetes name
// needs no quoting).
func retryNowFor(in Input) (Command, string) {
	k := in.Key
	if k.Source == api.SourceLogs {
		return Command{Verb: "kick", Target: true, Flags: []Flag{{Name: "from-logs"}}, Words: []string{k.Key}},
			" (it touches the object: a log cannot reach the queue)"
	}
	if !requeues(in.Controller) {
		return Command{Verb: "kick"}, // the session names the key and its controller
			" (it touches the object: this endpoint cannot requeue the key, its queue not instrumented or forget not allowed)"
	}
	return retryNow, ""
}

// requeues says whether c's endpoint can forget a key and add it to the
// queue now (api.Capabilities). A controller described without them (nil,
// or none of the three set: every instrumented one has a limiter, so can
// forget) is taken to.
func requeues(c *api.Controller) bool {
	if c == nil {
		return true
	}
	caps := c.Capabilities
	if !caps.CanForget && !caps.CanRequeue && !caps.ReadOnly {
		return true
	}
	return caps.Requeues()
}

// jitterRemedy is the advice against a herd: the instrument's opt-in jitter.
const jitterRemedy = "add jitter: wrap the rate limiter in instrument.JitterLimiter (±25% by default) " +
	"and set instrument.Options.Jitter for RequeueAfter"

func findings(in Input) []Finding {
	k := in.Key
	var out []Finding
	if f, ok := errorFinding(in); ok {
		out = append(out, f)
	}
	if o := in.Object; o != nil && o.Unobserved() && k.State == api.StateBackoff {
		cmd, note := retryNowFor(in)
		out = append(out, suggestion(FindingUnobserved, fmt.Sprintf(
			"Your edit (generation %d) is not observed yet: the key is in backoff, and the edit takes effect only when a reconcile succeeds — the next retry is at %s. "+
				"Once the cause is fixed, retry now with ", o.Verdict.Generation, text.TimeOfDay(k.NextRetryAt)), cmd, note+"."))
	}
	if f, ok := forecastBucket(in.Controller); ok && f.empty() {
		say := f.emptyText()
		out = append(out, Finding{Code: FindingThrottled, Message: strings.ToUpper(say[:1]) + say[1:] +
			". Every retry of this controller is throttled to " + rate(f.qps) + " per second."})
	}
	out = append(out, loopFindings(k.History)...)
	if f := in.Fleet; f != nil {
		if f.ShortRequeueAfter >= HotLoopKeys {
			out = append(out, Finding{Code: FindingHotLoop, Message: fmt.Sprintf(
				"%s keys requeue after less than 1s: a hot loop. A short RequeueAfter across many objects is a self-inflicted load test; poll less often or watch instead.",
				text.Thousands(f.ShortRequeueAfter))})
		}
		if f.HerdSize >= HerdKeys {
			out = append(out, herdFinding(f, in.Controller))
		}
	}
	return out
}

// herdFinding warns of the keys due in one second that no token bucket
// spread (their delays came from the per-item exponential or RequeueAfter).
// A controller that has a bucket still gets them at once: client-go's
// BucketRateLimiter.When reserves a token when a retry is scheduled
// (Limiter.Reserve().Delay()), not when it falls due, so the finding says
// so rather than contradict the bucket's "throttled to N per second".
func herdFinding(f *FleetStats, c *api.Controller) Finding {
	pace := "nothing paced them (their delays came from the per-item exponential or RequeueAfter, not a token bucket)"
	if bk, ok := forecastBucket(c); ok {
		pace = "their delays came from the per-item exponential or RequeueAfter, and the token bucket (" + rate(bk.qps) +
			" per second) spaces retries when they are scheduled, not when they fall due"
	}
	return Finding{Code: FindingHerd, Message: fmt.Sprintf("%s keys are due within the same second (at %s): %s. They arrive as a herd; %s.",
		text.Thousands(f.HerdSize), text.TimeOfDay(f.HerdAt), pace, jitterRemedy)}
}

// errorFinding judges a failing key's error by its class: a permanent one
// (or an unknown one that lasts with no change to the object) should not be
// retried; a transient one that lasts is an outage the backoff rides out.
// A key whose count was reset (Failures 0) has no live streak to judge.
func errorFinding(in Input) (Finding, bool) {
	k := in.Key
	if k.State != api.StateBackoff || k.Failures == 0 || k.LastError == nil {
		return Finding{}, false
	}
	switch classOf(k.LastError) {
	case api.ClassPermanent:
		// Read from a log, the controller is likely not the reader's own
		// (kube-controller-manager's): advice to its authors helps no one
		// reading; what the error names is what the reader can change.
		why := "The error is permanent: retrying will not fix it, and the growing backoff delays the fix. "
		if k.DelaySource == api.SourceItemFixed {
			// A fixed interval (the HPA's resync) does not grow.
			why = "The error is permanent: retrying it every " + text.FormatDuration(k.Delay.Duration) + " will not fix it. "
		}
		f := Finding{Code: FindingPermanent, Message: why + fixWhatItNames + " " + forAuthors + "record it as a status condition and an Event and return a TerminalError (or no error) instead of retrying.",
			User: why + fixWhatItNames}
		if k.Source == api.SourceLogs {
			f.Message, f.User = f.User, ""
		}
		return f, true
	case api.ClassTransient:
		if k.SameErrorCount < PermanentAfter {
			return Finding{}, false
		}
		if unlogged(k, in.Source) {
			// Successes are not in the log: the run may not be one streak.
			sooner, late := offRetry(k.History)
			msg := fmt.Sprintf("The error is transient, the same on the last %s%s", text.Plural(k.SameErrorCount, "logged failure"), sinceText(sameErrorSince(k), in.Now))
			if sooner+late >= LoopRepeats {
				return Finding{Code: FindingTransient, Message: msg + fmt.Sprintf(
					", but %d of the last %d attempts came off their retry's time and successes are not in this log: "+
						"it may be an error that comes and goes between successes (a conflict, a flaky call) rather than a dependency that is down. "+
						remedyFor(k, in.Source, in.Controller), sooner+late, len(k.History))}, true
			}
		}
		msg := fmt.Sprintf("The error is transient, the same on the last %d attempts%s: what the controller depends on is down, ", k.SameErrorCount, sinceText(sameErrorSince(k), in.Now))
		if historyLoops(k.History).preemptions >= LoopRepeats {
			// The loop finding says why: the backoff is not what paces it.
			return Finding{Code: FindingTransient, Message: msg + "but watch events, not the backoff, decide when it retries (below)."}, true
		}
		msg += "and the backoff is doing its job — nothing to change in the controller."
		if plan := retryPlan(in.Controller, k.Failures); plan != "" {
			msg += " If it keeps failing, the next retries wait " + plan + "."
		}
		cmd, note := retryNowFor(in)
		return suggestion(FindingTransient, msg+" Once the dependency is back, ", cmd, note+" retries now instead of after the delay."), true
	}
	failingFor := in.Now.Sub(k.FirstFailureAt)
	changed := !k.LastEventAt.IsZero() && !k.LastEventAt.Before(k.FirstFailureAt)
	if k.SameErrorCount < PermanentAfter || k.FirstFailureAt.IsZero() || failingFor < LongFailure || changed {
		return Finding{}, false
	}
	over := " over " + text.FormatDuration(failingFor)
	if k.SameErrorCount > k.Failures {
		// The run of the error began before the count restarted, so before
		// FirstFailureAt: its own start, when the history still holds it.
		over = " over more than " + text.FormatDuration(failingFor)
		if at := sameErrorSince(k); !at.IsZero() {
			over = " over " + text.FormatDuration(in.Now.Sub(at))
		}
	}
	looks := fmt.Sprintf("The same error on the last %d attempts%s, with no change to the object since, looks permanent: ",
		k.SameErrorCount, over)
	if k.Source == api.SourceLogs {
		// A log shows no watch events (LastEventAt is never set): "no
		// change since" would be a claim it cannot make, and attempts that
		// came sooner than their retry may well be edits.
		looks = fmt.Sprintf("The same error on the last %d attempts%s looks permanent: ", k.SameErrorCount, over)
	}
	f := Finding{Code: FindingPermanent,
		Message: looks + "retrying alone will not fix it. " + fixWhatItNames + " " + forAuthors + "if only " + aChangeFixes +
			" can fix it, record it as a status condition and an Event and return without an error (or a TerminalError) instead of retrying.",
		User: looks + "retrying alone will not fix it. " + fixWhatItNames}
	if k.Source == api.SourceLogs {
		// As for a permanent class: read from a log, the controller is
		// likely not the reader's own; what the error names is theirs.
		f.Message, f.User = f.User, ""
	}
	return f, true
}

// fixWhatItNames is what a reader who runs the controller can do about a
// permanent error: change what it names, which the next retry then reads.
const fixWhatItNames = "Fix what the error names: the object, or what it depends on (a quota, a missing object it refers to)."

// forAuthors labels the advice to the controller's authors, after the
// reader's fix: describe said only "return a TerminalError … instead of
// retrying" where top and why said "Fix what the error names" for the same
// key (the demo's demo/naive-00001): two fixes, the author's first.
const forAuthors = "For the controller's author: "

// aChangeFixes is what fixes a permanent error, said to its authors the way
// fixWhatItNames says it to a reader: one piece of advice everywhere. Not
// "the object" alone: a missing Service it refers to is created, not edited
// into the object.
const aChangeFixes = "a change to the object or to what it depends on (a quota, a missing object it refers to)"

// classOf is an error's class; a server that does not classify says unknown.
func classOf(e *api.ErrorRecord) string {
	if e == nil {
		return api.ClassUnknown
	}
	return classWord(e.Class)
}

// classWord is a class as the words say it: unknown when none was given
// (a server that does not classify), for a key's error and a group's alike.
func classWord(class string) string {
	if class == "" {
		return api.ClassUnknown
	}
	return class
}

// sameErrorSince is when the run of SameErrorCount attempts with the last
// error began. It is read from the history, and is unknown (zero) when the
// run began before it, unless the run is the whole failure streak: as many
// attempts as the count, which no forget restarted since the streak began
// (a forget restarts the count, not the streak or the run).
func sameErrorSince(k api.Key) time.Time {
	if k.LastError == nil {
		return time.Time{}
	}
	var since time.Time
	n := 0
	for i := len(k.History) - 1; i >= 0 && n < k.SameErrorCount; i-- {
		a := k.History[i]
		switch {
		case a.Outcome == api.OutcomeForgotten:
			continue // a reset, not an attempt
		case a.Error != k.LastError.Message:
			return since // the run began after a different outcome
		}
		since, n = a.At, n+1
	}
	if n == k.SameErrorCount {
		return since
	}
	if r := k.LastReset; k.SameErrorCount == k.Failures && (r == nil || r.At.Before(k.FirstFailureAt)) {
		return k.FirstFailureAt
	}
	return time.Time{}
}

// sinceText is " since 09:40:00 (20m0s)", or nothing when the start is unknown.
func sinceText(t, now time.Time) string {
	if t.IsZero() {
		return ""
	}
	return fmt.Sprintf(" since %s (%s)", text.TimeOfDay(t), text.FormatDuration(now.Sub(t)))
}
