package why

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/objstatus"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// Retry is the answer the tool is named for: the user changed what refused
// the controller after its last failure, and the controller has not
// retried since — when will it, does it watch what changed, and the kick
// that retries now.
type Retry struct {
	// Changed is the object a failure named, ChangedAt when (and by whom)
	// it last changed; LastFailure the failing object's latest failure.
	Changed     Object    `json:"changed"`
	ChangedAt   time.Time `json:"changedAt"`
	ChangedBy   string    `json:"changedBy,omitempty"`
	LastFailure time.Time `json:"lastFailure"`
	// Controller is the failing object's controller; Watches "yes", "no"
	// or "unknown" for the changed object's kind (kcmControllers).
	Controller string `json:"controller"`
	Watches    string `json:"watches"`
	// Failures and NextRetry are the controller's backoff for the key,
	// Basis where they come from ("exact", "estimated from …").
	Failures  int           `json:"failures,omitempty"`
	NextRetry time.Time     `json:"nextRetry,omitzero"`
	Delay     time.Duration `json:"delay,omitempty"`
	Basis     string        `json:"basis,omitempty"`
	// AsOf is the saved log's last line the countdown counts from (zero: now).
	AsOf time.Time `json:"asOf,omitzero"`
	// Kick is the command that retries now.
	Kick     string `json:"kick,omitempty"`
	Sentence string `json:"sentence"`
}

// retryOf is x's Retry, n its node in the chain; nil when no object its
// failures name changed after its last failure.
func retryOf(x *Answer, n *Node, prog string) *Retry {
	last, series := lastFailure(x)
	if n == nil || last.IsZero() {
		return nil
	}
	var changed *Node
	for _, c := range n.Below {
		if c.Changed != nil && c.Status != NotFound && c.Status != Refusing && c.Changed.Time.After(last) &&
			(changed == nil || c.Changed.Time.After(changed.Changed.Time)) {
			changed = c
		}
	}
	if changed == nil {
		return nil
	}
	gk := x.Object.groupKind()
	what := changed.Object
	if changed.ChangedObject != nil {
		what = *changed.ChangedObject // the webhook's Service, not its configuration
	}
	r := &Retry{Changed: what, ChangedAt: changed.Changed.Time, ChangedBy: changed.Changed.Manager, LastFailure: last, Watches: "unknown"}
	ctl, kcm := kcmControllers[gk]
	if kcm && slices.ContainsFunc(x.Ownership.StatusManagers, func(c Change) bool { return c.Manager == kcmManager }) {
		r.Controller, r.Watches = ctl.Name, ctl.watches(what.groupKind())
	} else {
		kcm = false
		r.Controller = "its controller"
		if x.Controller != nil && x.Controller.Manager != "" {
			r.Controller = "controller " + x.Controller.Manager
		}
	}
	switch b := x.Backoff; {
	case b != nil && b.Key != nil && b.Key.State == api.StateBackoff && !b.Key.NextRetryAt.IsZero():
		r.Failures, r.NextRetry, r.Delay = b.Key.Failures, b.Key.NextRetryAt, b.Key.Delay.Duration // the key's own delay, not the gap from an event
		r.Basis = b.Precision() + ", from " + map[bool]string{true: "its endpoint", false: "its log"}[b.Source == SourceEndpoint]
	case kcm && ctl.Period > 0:
		r.Delay, r.NextRetry, r.Basis = ctl.Period, last.Add(ctl.Period), fmt.Sprintf("it re-checks every key every %s", ctl.Period)
	case kcm && series != nil:
		r.Failures = int(series.Count)
		r.Delay = ctl.delayAfter(r.Failures)
		r.NextRetry = last.Add(r.Delay)
		r.Basis = fmt.Sprintf("estimated from the object's events: %d failures since %s, its queue doubles the delay from %s up to %s",
			r.Failures, text.TimeOfDay(series.First), ctl.Base, text.FormatDuration(ctl.Cap))
	case series != nil && series.Last.After(series.First):
		r.Failures = int(series.Count)
		r.Delay = series.Last.Sub(series.First)
		r.NextRetry = last.Add(r.Delay)
		r.Basis = fmt.Sprintf("estimated from the object's events (%d failures between %s and %s), if its backoff doubles", r.Failures,
			text.TimeOfDay(series.First), text.TimeOfDay(series.Last))
	}
	if r.Delay == 0 && !r.NextRetry.IsZero() {
		r.Delay = r.NextRetry.Sub(last)
	}
	r.Kick = command(prog, kickKind(gk, x.Object.Key), explain.Session{})
	if x.Backoff != nil {
		r.AsOf = x.Backoff.AsOf
	}
	r.Sentence = r.say(x.Clock())
	fixMade(x, r)
	return r
}

// fixMade puts in place of x's steps that ask for the fix of its error
// (fixSteps) what to do now: the error came before the user's change r,
// which is that fix. "Your change … came after the last failure" followed
// by "Fix what the error names: … exceeded quota" told the user to make
// the fix already made.
func fixMade(x *Answer, r *Retry) {
	if len(x.fixSteps) == 0 {
		return
	}
	now := fmt.Sprintf("Nothing left to fix: its error came before your change to %s. ", r.Changed.Ref())
	switch {
	case r.Watches == "yes":
		now += fmt.Sprintf("The %s watches %ss: the change is being reconciled.", r.Controller, r.Changed.Kind)
	case !r.NextRetry.IsZero():
		now += fmt.Sprintf("Wait for its retry at %s, or retry now: %s", text.TimeOfDay(r.NextRetry), quoted(r.Kick))
	default:
		now += "Wait for its next retry, or retry now: " + quoted(r.Kick)
	}
	var next []string
	for _, s := range x.Next {
		if !slices.Contains(x.fixSteps, s) {
			next = append(next, s)
		} else if now != "" {
			next, now = append(next, now), ""
		}
	}
	x.Next, x.fixSteps = next, nil
}

// lastFailure is x's latest failure: its newest failure event series, or
// what its controller's endpoint or log says of the key.
func lastFailure(x *Answer) (time.Time, *objstatus.Failure) {
	var last time.Time
	var series *objstatus.Failure
	for i, f := range x.Verdict.Failures {
		if f.Event && f.Last.After(last) {
			last, series = f.Last, &x.Verdict.Failures[i]
		}
	}
	// A write conflict is resolved by the retry that follows it (conflict.go):
	// a change made after it came after no failure that blocks.
	if b := x.Backoff; b != nil && b.Key != nil && b.Key.Failures > 0 && !conflicted(b) && b.Key.LastReconcileAt.After(last) {
		last = b.Key.LastReconcileAt
	}
	return last, series
}

// say is the sentence.
func (r *Retry) say(now time.Time) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Your change to %s at %s came after the last failure (%s). ", r.Changed.Ref(), text.TimeOfDay(r.ChangedAt), text.TimeOfDay(r.LastFailure))
	kind := r.Changed.Kind + "s"
	switch r.Watches {
	case "yes":
		fmt.Fprintf(&b, "The %s watches %s: the change is being reconciled", r.Controller, kind)
	case "no":
		fmt.Fprintf(&b, "The %s does not watch %s: it will see the change at its next retry", r.Controller, kind)
	default:
		fmt.Fprintf(&b, "Whether %s watches %s is not known: if not, it will see the change at its next retry", r.Controller, kind)
	}
	if !r.NextRetry.IsZero() {
		when := "in about " + text.Countdown(r.NextRetry, now)
		if !r.NextRetry.After(now) {
			when = "due about " + text.Ago(r.NextRetry, now)
		}
		if !r.AsOf.IsZero() {
			when += ", counted from the log's last line at " + text.TimeOfDay(r.AsOf)
		}
		fmt.Fprintf(&b, ", %s", when)
		var what []string
		if r.Failures > 0 {
			what = append(what, fmt.Sprintf("%d failures", r.Failures))
		}
		if r.Delay > 0 {
			what = append(what, "backing off ~"+text.FormatDuration(r.Delay))
		}
		what = append(what, r.Basis)
		fmt.Fprintf(&b, " (%s)", strings.Join(what, ", "))
	}
	b.WriteString(".")
	if r.Watches != "yes" {
		fmt.Fprintf(&b, " Retry now: %s", quoted(r.Kick))
	}
	return b.String()
}

// kindFlag is kick's --kind: KIND.GROUP, the kind alone for the core group.
func kindFlag(kind, group string) string {
	if group == "" {
		return kind
	}
	return kind + "." + group
}
