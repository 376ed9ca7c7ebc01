package inspector

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// Thresholds for the anti-patterns Explain flags.
const (
	// PermanentAfter is how many identical consecutive errors make a failure look permanent.
	PermanentAfter = 5
	// HotLoopKeys is how many keys with a RequeueAfter under a second make a hot loop.
	HotLoopKeys = 10
	// HerdKeys is how many keys due within one second make a retry herd.
	HerdKeys = 20
	// LongReconcile is when a running reconcile is worth pointing out.
	LongReconcile = 10 * time.Second
)

// Finding codes: stable names for the anti-patterns, for UIs to style.
const (
	FindingPermanent  = "looks-permanent"
	FindingHotLoop    = "hot-loop"
	FindingHerd       = "retry-herd"
	FindingThrottled  = "bucket-empty"
	FindingUnobserved = "edit-not-observed"
)

// ExplainInput is everything Explain reads. Only Key and Now are required.
type ExplainInput struct {
	Key api.Key
	// Controller is the key's controller as v1/controllers describes it.
	Controller *api.Controller
	// Object is the object behind the key, when it could be read.
	Object *ObjectStatus
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
	Code    string `json:"code"`
	Message string `json:"message"`
}

// String renders the whole diagnosis as plain text.
func (d Diagnosis) String() string {
	var b strings.Builder
	b.WriteString(d.Summary)
	for _, s := range d.Details {
		b.WriteString("\n")
		b.WriteString(s)
	}
	for _, f := range d.Findings {
		b.WriteString("\n! ")
		b.WriteString(f.Message)
	}
	return b.String()
}

// Explain turns a key's state into a plain-language diagnosis. It is a pure
// function: the same input gives the same words.
func Explain(in ExplainInput) Diagnosis {
	k, now := in.Key, in.Now
	d := Diagnosis{State: k.State}
	switch k.State {
	case api.StateBackoff:
		d.Summary = explainBackoff(k, in.Controller, now)
	case api.StateScheduled:
		d.Summary = explainScheduled(k, now)
	case api.StateQueued:
		d.Summary = explainQueued(k, now)
	case api.StateRunning:
		d.Summary = fmt.Sprintf("Reconciling since %s (%s so far).", clock(k.StartedAt), human(now.Sub(k.StartedAt)))
		if now.Sub(k.StartedAt) >= LongReconcile {
			d.Details = append(d.Details, "A reconcile this long holds a worker: other keys wait. Return RequeueAfter instead of waiting inside Reconcile.")
		}
	case api.StateFailed:
		d.Summary = fmt.Sprintf("Failed with a terminal error at %s; not retried. Only a change to the object (a watch event) reconciles it again.", clock(failedAt(k)))
		if k.Failures > 0 {
			d.Details = append(d.Details, fmt.Sprintf("The backoff counter is kept at %d: the next failure continues from there.", k.Failures))
		}
	case api.StateUnknown:
		d.Summary = explainUnknown(k)
	default:
		d.Summary = "Converged: the last reconcile succeeded; the backoff is forgotten."
		if !k.LastSuccessAt.IsZero() {
			d.Summary = fmt.Sprintf("Converged: the last reconcile succeeded at %s; the backoff is forgotten.", clock(k.LastSuccessAt))
		}
	}
	if k.LastError != nil && k.State != api.StateIdle && k.State != api.StateScheduled {
		d.Details = append(d.Details, explainError(k))
	}
	if s := explainEdit(k, in.Object); s != "" {
		d.Details = append(d.Details, s)
	}
	if k.Source == api.SourceLogs {
		d.Details = append(d.Details, estimatedNote)
	}
	d.Findings = findings(in)
	return d
}

func explainBackoff(k api.Key, c *api.Controller, now time.Time) string {
	var b strings.Builder
	window := k.Delay.Duration
	fmt.Fprintf(&b, "Backing off %s after %s", human(window), plural(k.Failures, "consecutive failure"))
	if requeuedWithoutError(k) {
		b.WriteString(" (the last reconcile returned Requeue: true, not an error)")
	}
	b.WriteString(": ")
	exp := component(c, api.SourceItemExponential)
	switch k.DelaySource {
	case api.SourceItemExponential:
		if exp != nil && k.Failures > 0 {
			fmt.Fprintf(&b, "per-item exponential, %s·2^%d, cap %s", human(exp.BaseDelay.Duration), k.Failures-1, human(exp.MaxDelay.Duration))
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
	default:
		b.WriteString("chosen by the controller's own rate limiter")
	}
	b.WriteString(". ")
	b.WriteString(nextRetry(k, now))
	if exp != nil && k.DelaySource != api.SourceSpread {
		next := expDelay(exp.BaseDelay.Duration, exp.MaxDelay.Duration, k.Failures)
		atLeast := ""
		if component(c, api.SourceBucket) != nil {
			// max(exponential, bucket): the bucket may make it longer.
			atLeast = "at least "
		}
		fmt.Fprintf(&b, "; if it fails again, the one after waits %s%s", atLeast, human(next))
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

// expDelay is client-go's per-item exponential delay after failures failures.
func expDelay(base, max time.Duration, failures int) time.Duration {
	d := float64(base) * math.Pow(2, float64(failures))
	if d > float64(max) {
		return max
	}
	return time.Duration(d)
}

func nextRetry(k api.Key, now time.Time) string {
	if k.NextRetryAt.IsZero() {
		return "The next retry time is not known yet"
	}
	if !k.NextRetryAt.After(now) {
		return fmt.Sprintf("The retry was due at %s", clock(k.NextRetryAt))
	}
	return fmt.Sprintf("Next retry at %s (in %s)", clock(k.NextRetryAt), human(k.NextRetryAt.Sub(now)))
}

func explainScheduled(k api.Key, now time.Time) string {
	s := fmt.Sprintf("Scheduled: the last reconcile asked to be called again after %s (RequeueAfter) — a planned re-check, not a failure", human(k.Delay.Duration))
	if k.DelaySource == api.SourceSpread {
		s = fmt.Sprintf("Scheduled: a bulk retry reset its backoff and releases it %s after the request, so that the keys do not all retry at once", human(k.Delay.Duration))
	}
	return s + ". " + nextRetry(k, now) + "."
}

func explainQueued(k api.Key, now time.Time) string {
	switch {
	case !k.QueuedAt.IsZero() && !k.LastEventAt.IsZero() && !k.LastEventAt.Before(k.QueuedAt):
		return fmt.Sprintf("Queued since %s after a watch event: ready, waiting for a free worker.", clock(k.QueuedAt))
	case !k.QueuedAt.IsZero():
		return fmt.Sprintf("Queued since %s: ready, waiting for a free worker.", clock(k.QueuedAt))
	case !k.NextRetryAt.IsZero():
		return fmt.Sprintf("Queued: its retry came due at %s (%s ago); waiting for a free worker.", clock(k.NextRetryAt), human(now.Sub(k.NextRetryAt)))
	}
	return "Queued: ready, waiting for a free worker."
}

func explainError(k api.Key) string {
	msg := fmt.Sprintf("Last error: %q", k.LastError.Message)
	if k.SameErrorCount > 1 {
		msg += fmt.Sprintf(", the same on the last %d attempts", k.SameErrorCount)
	}
	if !k.FirstFailureAt.IsZero() && k.State == api.StateBackoff {
		msg += fmt.Sprintf("; failing since %s", clock(k.FirstFailureAt))
	}
	return msg + "."
}

// explainEdit says whether the user's latest change has been acted upon.
func explainEdit(k api.Key, o *ObjectStatus) string {
	var parts []string
	if !k.LastEventAt.IsZero() {
		switch {
		case !k.LastReconcileAt.IsZero() && !k.LastReconcileAt.Before(k.LastEventAt):
			parts = append(parts, fmt.Sprintf("The last change arrived at %s and was reconciled at %s", clock(k.LastEventAt), clock(k.LastReconcileAt)))
		default:
			parts = append(parts, fmt.Sprintf("The last change arrived at %s and has not been reconciled yet", clock(k.LastEventAt)))
		}
	}
	if o != nil && o.ObservedGeneration != nil {
		if *o.ObservedGeneration < o.Generation {
			parts = append(parts, fmt.Sprintf("your edit (generation %d) is not yet observed: status.observedGeneration is %d", o.Generation, *o.ObservedGeneration))
		} else {
			parts = append(parts, fmt.Sprintf("generation %d is observed", o.Generation))
		}
	}
	if o != nil && o.DeletionTimestamp != nil {
		parts = append(parts, fmt.Sprintf("the object is being deleted since %s, waiting on finalizers %s", clock(*o.DeletionTimestamp), strings.Join(o.Finalizers, ", ")))
	}
	if len(parts) == 0 {
		return ""
	}
	s := strings.Join(parts, "; ")
	return strings.ToUpper(s[:1]) + s[1:] + "."
}

func findings(in ExplainInput) []Finding {
	k := in.Key
	var out []Finding
	if k.State == api.StateBackoff && k.SameErrorCount >= PermanentAfter {
		out = append(out, Finding{FindingPermanent, fmt.Sprintf(
			"The same error on the last %d attempts looks permanent: if only a change to the object can fix it, "+
				"record it as a status condition and an Event and return without an error (or a TerminalError) instead of retrying.",
			k.SameErrorCount)})
	}
	if o := in.Object; o != nil && o.ObservedGeneration != nil && *o.ObservedGeneration < o.Generation && k.State == api.StateBackoff {
		out = append(out, Finding{FindingUnobserved, fmt.Sprintf(
			"Your edit (generation %d) is not observed yet: the key is in backoff, and the edit takes effect only when a reconcile succeeds — the next retry is at %s. "+
				"Once the cause is fixed, retry now with `kubectl backoff forget --requeue`.",
			o.Generation, clock(k.NextRetryAt))})
	}
	if bk := component(in.Controller, api.SourceBucket); bk != nil && bk.Tokens != nil && *bk.Tokens < 1 {
		out = append(out, Finding{FindingThrottled, fmt.Sprintf(
			"The token bucket is empty (%.1f of %d tokens): every retry of this controller is throttled to %g per second.",
			math.Max(*bk.Tokens, 0), bk.Burst, bk.QPS)})
	}
	if f := in.Fleet; f != nil {
		if f.ShortRequeueAfter >= HotLoopKeys {
			out = append(out, Finding{FindingHotLoop, fmt.Sprintf(
				"%d keys requeue after less than 1s: a hot loop. A short RequeueAfter across many objects is a self-inflicted load test; poll less often or watch instead.",
				f.ShortRequeueAfter)})
		}
		if f.HerdSize >= HerdKeys {
			out = append(out, Finding{FindingHerd, fmt.Sprintf(
				"%d keys are due within the same second (at %s): retries without jitter arrive as a herd.",
				f.HerdSize, clock(f.HerdAt))})
		}
	}
	return out
}

// failedAt is when a failed key's terminal error happened.
func failedAt(k api.Key) time.Time {
	if k.LastError != nil {
		return k.LastError.At
	}
	return k.LastReconcileAt
}

func component(c *api.Controller, name string) *api.LimiterComponent {
	if c == nil {
		return nil
	}
	for i := range c.Limiter.Components {
		if c.Limiter.Components[i].Name == name {
			return &c.Limiter.Components[i]
		}
	}
	return nil
}

// human is FormatDuration, short for the sentences below.
func human(d time.Duration) string { return FormatDuration(d) }

// FormatDuration formats a duration as people read it: "250µs", "5ms",
// "1.3s", "4m12s", "16m40s". The CLI and the explanations share it.
func FormatDuration(d time.Duration) string {
	switch {
	case d <= 0:
		return "0s"
	case d < time.Millisecond:
		return d.Round(time.Microsecond).String()
	case d < time.Second:
		return d.Round(time.Millisecond).String()
	case d < time.Minute:
		return d.Round(100 * time.Millisecond).String()
	}
	return d.Round(time.Second).String()
}

// clock formats a server time as a wall-clock time of day, in UTC.
func clock(t time.Time) string { return t.UTC().Format("15:04:05") }

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
