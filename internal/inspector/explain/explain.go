package explain

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/objstatus"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// Input is everything Explain reads. Only Key and Now are required.
type Input struct {
	Key api.Key
	// Controller is the key's controller as v1/controllers describes it.
	Controller *api.Controller
	// Source is the list's source (v1/controllers' source): nil for an
	// instrumented process; for a log, what it can and cannot show.
	Source *api.ListSource
	// Object is the object behind the key, when it could be read.
	Object *objstatus.Object
	// Fleet summarises the controller's other keys, for the fleet-wide anti-patterns.
	Fleet *FleetStats
	// Now is the server's time (serverTime), never the client's.
	Now time.Time
}

// Diagnosis is Explain's answer.
type Diagnosis struct {
	State api.State `json:"state"`
	// Summary is the one-line answer to "why isn't my change taking effect?".
	Summary string `json:"summary"`
	// Details are further sentences: the error, the streak, the edit, what comes next.
	Details []string `json:"details,omitempty"`
	// Findings are the anti-patterns seen, most important first.
	Findings []Finding `json:"findings,omitempty"`
}

// Finding is one anti-pattern with its advice.
type Finding struct {
	Code string `json:"code"`
	// Message is the advice, its command (if any) rendered for a session
	// attached with no flags; For renders it for the session that asks.
	Message string `json:"message"`
	// Command is the command the advice suggests, as a value; nil for none.
	Command *Command `json:"command,omitempty"`
	// User is the advice for a reader who runs the controller rather than
	// writes it (top's key view, at an incident): what to do now, without
	// Message's advice to the controller's authors (return a
	// TerminalError); "" when Message is that already. Message keeps the
	// authors' hint for describe and the MCP tools, read while working on
	// the controller.
	User string `json:"-"`
	// before and after are Message around the command, backquotes aside.
	before, after string
}

// String renders the whole diagnosis as plain text.
func (d Diagnosis) String() string { return renderText(d.Summary, d.Details, d.Findings) }

// renderText is the plain-text form of a diagnosis: the head, the details a
// line each, then each finding after "! ".
func renderText(head string, details []string, findings []Finding) string {
	var b strings.Builder
	b.WriteString(head)
	for _, s := range details {
		b.WriteString("\n")
		b.WriteString(s)
	}
	for _, f := range findings {
		b.WriteString("\n! ")
		b.WriteString(f.Message)
	}
	return b.String()
}

// Explain turns a key's state into a plain-language diagnosis. It is a pure
// function: the same input gives the same words.
func Explain(in Input) Diagnosis {
	k, now := in.Key, in.Now
	d := Diagnosis{State: k.State}
	switch k.State {
	case api.StateBackoff:
		if k.Failures == 0 && k.DelaySource == api.SourceSpread {
			d.Summary = explainSpread(k, in.Source, now)
		} else if k.Failures == 0 {
			// A reset (forget) left a retry pending: "backing off after 0
			// failures" would contradict itself.
			d.Summary = explainPendingAfterReset(k, in.Controller, in.Source, now)
		} else {
			d.Summary = explainBackoff(k, in.Controller, in.Source, now)
		}
	case api.StateScheduled:
		d.Summary = explainScheduled(k, in.Source, now)
	case api.StateQueued:
		d.Summary = explainQueued(k, in.Source, now)
	case api.StateRunning:
		d.Summary = fmt.Sprintf("Reconciling since %s (%s so far).", text.TimeOfDay(k.StartedAt), text.FormatDuration(now.Sub(k.StartedAt)))
		if now.Sub(k.StartedAt) >= LongReconcile {
			d.Details = append(d.Details, "A reconcile this long holds a worker: other keys wait. Return RequeueAfter instead of waiting inside Reconcile.")
		}
	case api.StateFailed:
		if r := GaveUp(k); r != nil {
			d.Summary = gaveUpSummary(k, r)
			if r.Kept && k.Failures > 0 {
				d.Details = append(d.Details, fmt.Sprintf("The count is kept, not reset: the give-up line states it and no line says the key was forgotten, so a failure after the next change continues from %d.", k.Failures))
			}
			break
		}
		d.Summary = fmt.Sprintf("Failed with a terminal error at %s; not retried. Only a change to the object (a watch event) reconciles it again.", text.TimeOfDay(lastErrorAt(k)))
		if k.Failures > 0 {
			d.Details = append(d.Details, fmt.Sprintf("The backoff counter is kept at %d: the next failure continues from there.", k.Failures))
		}
	case api.StateUnknown:
		d.Summary = explainUnknown(k, in.Source, in.Controller)
	default:
		d.Summary = "Converged: the last reconcile succeeded; the backoff is forgotten."
		if !k.LastSuccessAt.IsZero() {
			d.Summary = fmt.Sprintf("Converged: the last reconcile succeeded at %s; the backoff is forgotten.", text.TimeOfDay(k.LastSuccessAt))
		}
	}
	if k.LastError != nil && k.State != api.StateIdle && k.State != api.StateScheduled {
		d.Details = append(d.Details, explainError(k))
	}
	if s := explainEdit(k, in.Object); s != "" {
		d.Details = append(d.Details, s)
	}
	if k.Source == api.SourceLogs {
		d.Details = append(d.Details, logNote(k, in.Controller))
		if k.ControllerWords != "" {
			d.Details = append(d.Details, controllerWordsNote(k))
		}
		if k.LogLine != "" {
			d.Details = append(d.Details, genericNote(k))
		} else if k.LogEvidence != "" {
			d.Details = append(d.Details, dialectEvidenceNote(k))
		}
		if s := unloggedNote(k, in.Source, in.Controller); s != "" {
			d.Details = append(d.Details, s)
		}
		if s := sampledNote(k, in.Source); s != "" {
			d.Details = append(d.Details, s)
		}
	}
	d.Findings = findings(in)
	return d
}

func explainBackoff(k api.Key, c *api.Controller, src *api.ListSource, now time.Time) string {
	var b strings.Builder
	window := k.Delay.Duration
	fmt.Fprintf(&b, "Backing off %s after %s", text.FormatDuration(window), FailuresText(k, src))
	if requeuedWithoutError(k) {
		b.WriteString(" (the last reconcile returned Requeue: true, not an error)")
	}
	b.WriteString(": ")
	exp := component(c, api.SourceItemExponential)
	switch k.DelaySource {
	case api.SourceItemFixed:
		// client-go's FixedItemIntervalRateLimiter (the HPA controller's):
		// no doubling to describe, and no cap reached.
		if f := component(c, api.SourceItemFixed); f != nil && f.BaseDelay.Duration > 0 {
			fmt.Fprintf(&b, "per-item fixed interval, %s every retry, not growing", text.FormatDuration(f.BaseDelay.Duration))
		} else {
			b.WriteString("per-item fixed interval, the same every retry, not growing")
		}
	case api.SourceItemExponential:
		if exp != nil && k.Failures > 0 {
			fmt.Fprintf(&b, "per-item exponential, %s·2^%d, cap %s", text.FormatDuration(exp.BaseDelay.Duration), k.Failures-1, text.FormatDuration(exp.MaxDelay.Duration))
			if window >= exp.MaxDelay.Duration {
				b.WriteString(" (at the cap)")
			}
		} else {
			b.WriteString("per-item exponential")
		}
	case api.SourceBucket:
		if bk := component(c, api.SourceBucket); bk != nil {
			fmt.Fprintf(&b, "the controller-wide token bucket (%g qps, burst %d) chose this delay, not this key's failures", bk.QPS, bk.Burst)
		} else {
			b.WriteString("the controller-wide token bucket chose this delay, not this key's failures")
		}
	case api.SourceSpread:
		b.WriteString("released by a bulk retry spread over time")
	case api.SourceRequeueAfter:
		b.WriteString("the controller asked for this retry itself (RequeueAfter)")
	case api.SourceStated:
		// A log's failure line that states its delay: the words are its own.
		b.WriteString(statedText(k))
	case api.SourceQueue:
		b.WriteString("the retry time is the priority queue's own, from its workqueue_items line (V(5)): exact, not estimated")
	case api.SourceSpacing:
		b.WriteString("estimated from the spacing of this key's own failures, longer than the assumed limiter's: a limiter the log does not name chose it")
	case api.SourceDoubling:
		b.WriteString("estimated from the doubling gaps of this key's own failures: a per-item exponential's, twice the last gap")
	case api.SourceWaited:
		// A log's failure line that states the delay its attempt waited:
		// the limiter's previous step, not this one.
		fmt.Fprintf(&b, "estimated from the delay the failure's line states its attempt waited in the queue (%s): a per-item exponential's next step, twice it", strconv.QuoteToGraphic(k.DelayWords))
	default:
		b.WriteString("chosen by the controller's own rate limiter")
	}
	b.WriteString(". ")
	b.WriteString(nextRetry(k, src, now))
	switch {
	case k.DelaySource == api.SourceSpacing:
		// The key's own spacing outgrew the assumed limiter: the next wait
		// is no shorter (client-go's per-item limiters never shorten a
		// key's delay within a streak), not the assumed limiter's 20ms.
		if w := spacingWait(c, k); w != "" {
			fmt.Fprintf(&b, "; if it fails again, the one after waits %s", w)
		}
	case k.DelaySource == api.SourceDoubling || k.DelaySource == api.SourceWaited:
		// The controller's own exponential doubles on, up to a cap the log
		// does not show.
		fmt.Fprintf(&b, "; if it fails again, the one after waits about %s, unless the controller's cap is shorter", text.FormatDuration(2*k.Delay.Duration))
	case k.DelaySource != api.SourceSpread && k.DelaySource != api.SourceRequeueAfter && k.DelaySource != api.SourceStated:
		if w := nextWait(c, k.Failures); w != "" {
			fmt.Fprintf(&b, "; if it fails again, the one after waits %s", w)
		}
	}
	b.WriteString(".")
	return b.String()
}

// requeuedWithoutError reports whether the last reconcile asked for Requeue:
// true. Only the history tells: a limiter-only probe records failures without
// an error message too.
func requeuedWithoutError(k api.Key) bool {
	n := len(k.History)
	return n > 0 && k.History[n-1].Outcome == api.OutcomeRequeue
}

// explainPendingAfterReset explains a key whose failure count was reset
// (a forget, or the controller giving up) while a retry was pending: the
// retry keeps its time, the count starts over.
func explainPendingAfterReset(k api.Key, c *api.Controller, src *api.ListSource, now time.Time) string {
	var b strings.Builder
	if r := k.LastReset; r != nil {
		fmt.Fprintf(&b, "Backoff forgotten at %s (%s)", text.TimeOfDay(r.At), resetText(r))
	} else {
		b.WriteString("No failures counted")
	}
	switch {
	case k.NextRetryAt.IsZero():
		b.WriteString("; the retry already scheduled keeps its time")
	case k.NextRetryAt.After(now):
		fmt.Fprintf(&b, "; the retry already scheduled at %s keeps its time (%s)", text.TimeOfDay(k.NextRetryAt), inText(text.Countdown(k.NextRetryAt, now), src))
	default:
		fmt.Fprintf(&b, "; the retry already scheduled came due at %s", text.TimeOfDay(k.NextRetryAt))
	}
	if w := NextFailureWait(c); w != "" {
		fmt.Fprintf(&b, "; the next failure waits %s", w)
	} else {
		b.WriteString("; the next failure starts the backoff over")
	}
	b.WriteString(".")
	return b.String()
}

// resetText says who reset a key: "by forget", "by forget, alice: db
// restored", "the controller gave up after 3 failures".
func resetText(r *api.Reset) string {
	if r.By == api.ResetGaveUp {
		return "the controller gave up after " + text.Plural(r.Failures, "failure")
	}
	s := "by " + r.By
	if r.User != "" {
		s += ", " + r.User
	}
	if r.Reason != "" {
		s += ": " + r.Reason
	}
	return s
}

// retryWord is what the key waits for: a retry after a failure, or the
// re-check a RequeueAfter asked for, which is no retry.
func retryWord(k api.Key) string {
	if k.DelaySource == api.SourceRequeueAfter {
		return "re-check"
	}
	return "retry"
}

func nextRetry(k api.Key, src *api.ListSource, now time.Time) string {
	if k.NextRetryAt.IsZero() {
		return "The next retry time is not known yet"
	}
	what := retryWord(k)
	if !k.NextRetryAt.After(now) {
		return fmt.Sprintf("The %s was due at %s", what, text.TimeOfDay(k.NextRetryAt))
	}
	s := fmt.Sprintf("Next %s at %s (%s)", what, text.TimeOfDay(k.NextRetryAt), inText(text.Countdown(k.NextRetryAt, now), src))
	if k.EarlierRetry {
		// The queue keeps the sooner of two ready times for one key.
		s += ", a retry scheduled before this delay and still pending: the queue keeps the sooner time"
	}
	return s
}

func explainScheduled(k api.Key, src *api.ListSource, now time.Time) string {
	s := fmt.Sprintf("Scheduled: the last reconcile asked to be called again after %s (RequeueAfter) — a planned re-check, not a failure", text.FormatDuration(k.Delay.Duration))
	switch k.DelaySource {
	case api.SourceSpread:
		s = fmt.Sprintf("Scheduled: a bulk retry reset its backoff and releases it %s after the request, so that the keys do not all retry at once", text.FormatDuration(k.Delay.Duration))
	case api.SourceRequeueAfter:
	default:
		// A success while client-go's delaying queue still holds a retry
		// scheduled by an earlier failure: the queue runs the key once more.
		s = fmt.Sprintf("Converged at %s, but a retry scheduled by an earlier failure is still pending in the queue and runs it once more", text.TimeOfDay(k.LastSuccessAt))
		return s + " at " + text.TimeOfDay(k.NextRetryAt) + " (" + inText(text.FormatDuration(k.NextRetryAt.Sub(now)), src) + ")."
	}
	return s + ". " + nextRetry(k, src, now) + "."
}

func explainQueued(k api.Key, src *api.ListSource, now time.Time) string {
	switch {
	case !k.QueuedAt.IsZero() && !k.LastEventAt.IsZero() && !k.LastEventAt.Before(k.QueuedAt):
		return fmt.Sprintf("Queued since %s after a watch event: ready, waiting for a free worker.", text.TimeOfDay(k.QueuedAt))
	case !k.QueuedAt.IsZero():
		return fmt.Sprintf("Queued since %s: ready, waiting for a free worker.", text.TimeOfDay(k.QueuedAt))
	case !k.NextRetryAt.IsZero():
		return fmt.Sprintf("Queued: its %s came due at %s (%s); waiting for a free worker.", retryWord(k), text.TimeOfDay(k.NextRetryAt), agoText(text.FormatDuration(now.Sub(k.NextRetryAt)), src))
	}
	return "Queued: ready, waiting for a free worker."
}

// maxQuotedError bounds the last error a diagnosis quotes, in runes: a
// log's line may hold thousands, which would bury the sentence around it.
// Cut in its middle, keeping more of its end (the cause comes last).
const maxQuotedError = 600

func explainError(k api.Key) string {
	quoted := k.LastError.Message
	if r := []rune(quoted); len(r) > maxQuotedError {
		quoted = text.CutMiddle(quoted, maxQuotedError, text.MessageTail(maxQuotedError-1), false, text.Runes)
	}
	msg := fmt.Sprintf("Last error: %q", quoted)
	if c := ErrorClassText(k.LastError.Class); c != "" {
		msg = fmt.Sprintf("Last error (%s): %q", c, quoted)
	}
	// A reset (forget) restarts the failure count, not the run of the same
	// error: a run longer than the count began before the reset.
	spans := k.Failures > 0 && k.SameErrorCount > k.Failures
	if k.SameErrorCount > 1 {
		msg += fmt.Sprintf(", the same on the last %d attempts", k.SameErrorCount)
		if spans {
			if at := sameErrorSince(k); !at.IsZero() {
				msg += " since " + text.TimeOfDay(at)
			}
			msg += " (the failure count restarted among them)"
		}
	}
	if r := k.LastReset; r != nil && (k.Failures == 0 || r.Kept) && !r.At.Before(k.LastError.At) {
		if r.By == api.ResetGaveUp {
			msg += " before the controller gave up"
		} else {
			msg += " before the reset"
		}
	}
	// A forget restarts the count, not the failure: the streak goes on.
	if !k.FirstFailureAt.IsZero() && k.State == api.StateBackoff {
		msg += "; failing since " + text.TimeOfDay(k.FirstFailureAt)
	}
	return msg + "."
}
