package explain

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// Situations: stable names for what a controller as a whole is going
// through, for UIs to style (ControllerDiagnosis.Situation).
const (
	// SituationHealthy: nothing failing, and no key unknown.
	SituationHealthy = "healthy"
	// SituationBusy: nothing failing, but keys wait for a worker.
	SituationBusy = "busy"
	// SituationOutage: many keys backing off on a transient error.
	SituationOutage = "outage"
	// SituationRetrying: a few keys retrying a transient error.
	SituationRetrying = "retrying"
	// SituationPermanent: keys retried on an error retrying cannot fix.
	SituationPermanent = "permanent"
	// SituationFailed: keys failed for good (terminal), waiting on a fix to their objects.
	SituationFailed = "failed"
	// SituationFailing: keys failing on an error nothing classifies, not long enough to judge.
	SituationFailing = "failing"
	// SituationStandby: the controller is not active in this replica.
	SituationStandby = "standby"
	// SituationUnknown: nothing known failing, but keys read from a log
	// failed and logged nothing since their retries came (api.StateUnknown):
	// they may have converged or still fail, so not healthy.
	SituationUnknown = "unknown"
)

// OutageKeys is how many keys failing on one transient error make an
// outage rather than a few retries.
const OutageKeys = 10

// DiagnosisStates are the states whose error groups DiagnoseController
// reads: the keys retrying now — not the old errors of converged keys, nor
// the terminal errors of failed ones, which the controller already handles
// right and which would otherwise pass for errors it keeps retrying.
var DiagnosisStates = []api.State{api.StateBackoff}

// FailingStates are the keys still failing: retrying (backoff) or given up
// on (failed). Grouping keys by error looks at these unless told otherwise,
// since an idle key keeps the last error it recovered from.
var FailingStates = []api.State{api.StateBackoff, api.StateFailed}

// ErrorStates are the states grouping keys by error reads unless told
// otherwise: FailingStates, and for keys read from a log unknown too. A
// log's key gone quiet after its error (api.StateUnknown) has that error as
// the log's last word of it, and may still be failing: leaving it out would
// show a log whose every key failed as "no keys with an error".
func ErrorStates(fromLogs bool) []api.State {
	if fromLogs {
		return append(slices.Clone(FailingStates), api.StateUnknown)
	}
	return FailingStates
}

// ControllerDiagnosis is the diagnosis of one controller as a whole.
type ControllerDiagnosis struct {
	Controller string `json:"controller"`
	// Situation is one of the Situation constants.
	Situation string `json:"situation"`
	// Summary is the one-line diagnosis, without the controller's name.
	Summary string `json:"summary"`
	// Details are the full form's further lines: keys, limiter, errors, forecast.
	Details []string `json:"details,omitempty"`
	// Findings are advice, most important first.
	Findings []Finding `json:"findings,omitempty"`
	// Quoted is the error message Summary quotes, if any: a narrow
	// screen cuts it in its middle to keep the rest of the sentence.
	Quoted string `json:"-"`
}

// Line is the one-line form: "outage — 100 keys backing off since …".
func (d ControllerDiagnosis) Line() string {
	return ControllerWords(d.Controller) + " — " + d.Summary
}

// String is the full form: the line, the details, then each finding after "! ".
func (d ControllerDiagnosis) String() string { return renderText(d.Line(), d.Details, d.Findings) }

// DiagnoseController diagnoses a controller from what its endpoint knows:
// the counts by state, the limiter and its bucket, the forecast, and the
// error groups of its retrying keys (v1/errors for DiagnosisStates; groups
// of other controllers are ignored). src is the list's source (nil for an
// instrumented process), now the server's time. Pure: the same input gives
// the same words.
func DiagnoseController(c api.Controller, src *api.ListSource, groups []api.ErrorGroup, now time.Time) ControllerDiagnosis {
	d := ControllerDiagnosis{Controller: c.Name}
	if !c.Active {
		d.Situation = SituationStandby
		d.Summary = "standby: not active in this replica (not the leader, or not started): no queue, no keys"
		return d
	}
	var mine []api.ErrorGroup
	for _, g := range groups {
		if g.Controller == c.Name {
			mine = append(mine, g)
		}
	}
	slices.SortStableFunc(mine, func(a, b api.ErrorGroup) int { return cmp.Compare(b.Count, a.Count) })
	d.Details = controllerDetails(c, mine)

	backoff, failed := c.Counts[api.StateBackoff], c.Counts[api.StateFailed]
	if InTrouble(&c) == 0 {
		d.Situation, d.Summary = healthySummary(c, src)
		d.Findings = herdFindings(c)
		return d
	}
	var top api.ErrorGroup
	if len(mine) > 0 {
		top = mine[0]
	}
	on := errorsText(mine, top)
	if on != "" || len(mine) > 0 {
		d.Quoted = text.OneLine(top.Message, 0)
	}
	var parts []string
	switch {
	case backoff == 0:
		d.Situation = SituationFailed
		parts = append(parts, fmt.Sprintf("%s failed for good: not retried until their objects change", keys(failed)))
		d.Findings = append(d.Findings, Finding{Code: FindingPermanent, Message: "The controller reports these errors and stops retrying, as it should: fix the objects (describe one of the keys for its events and conditions); each fix is reconciled at once."})
	case top.Class == api.ClassPermanent || (top.Class != api.ClassTransient && lasted(top, now)):
		d.Situation = SituationPermanent
		what := "the same permanent error"
		if top.Class != api.ClassPermanent {
			what = "the same error, which looks permanent (unclassified, lasting)"
		}
		if top.Count > 0 && top.Count < backoff {
			// The keys fail on different errors: only the top group's
			// share this one (a missing ServiceAccount beside an exceeded
			// quota is not "the same").
			// How long is the quoted error's: its keys', not every
			// failing key's ("2 keys failing for 0s" of a key failing for
			// a minute beside one that had just failed).
			what = fmt.Sprintf("%d of them%s on a permanent error", top.Count, forText(top.FirstSeen, now))
			if top.Class != api.ClassPermanent {
				what = fmt.Sprintf("%d of them%s on an error that looks permanent (unclassified, lasting)", top.Count, forText(top.FirstSeen, now))
			}
			parts = append(parts, fmt.Sprintf("%s failing, %s: %s", keys(backoff), what, text.OneLine(top.Message, 0)))
		} else {
			parts = append(parts, fmt.Sprintf("%s failing%s on %s: %s", keys(backoff), forText(top.FirstSeen, now), what, text.OneLine(top.Message, 0)))
		}
		d.Findings = append(d.Findings, permanentGroupFinding(src))
	case top.Class == api.ClassTransient && top.Count >= OutageKeys:
		d.Situation = SituationOutage
		parts = append(parts, fmt.Sprintf("%s backing off%s%s", keys(backoff), sinceClock(top.FirstSeen), on))
		d.Findings = append(d.Findings, outageFinding(c, src, top))
	case top.Class == api.ClassTransient && api.IsWriteConflict(top.Message):
		d.Situation = SituationRetrying
		parts = append(parts, fmt.Sprintf("%s retrying after write conflicts (the object has been modified): "+
			"normal when several writers update the same objects; each retry reads the new version", keys(backoff)))
	case top.Class == api.ClassTransient:
		d.Situation = SituationRetrying
		parts = append(parts, fmt.Sprintf("%s retrying%s; the backoff resolves these on its own", keys(backoff), on))
	case len(mine) == 0:
		// A server without v1/errors, or keys that asked for Requeue
		// without an error: the counts alone.
		d.Situation = SituationFailing
		parts = append(parts, fmt.Sprintf("%s backing off", keys(backoff)))
	default:
		d.Situation = SituationFailing
		parts = append(parts, fmt.Sprintf("%s failing%s%s", keys(backoff), sinceClock(top.FirstSeen), on))
	}
	if d.Situation != SituationPermanent && d.Situation != SituationFailed && len(mine) > 1 {
		// The top group speaks for the headline; a permanent error beside it
		// (a 422 during a 503 outage) is retried just as long, and no wait
		// for the dependency fixes it: it must not go unsaid.
		if i := slices.IndexFunc(mine[1:], func(g api.ErrorGroup) bool { return g.Class == api.ClassPermanent }); i >= 0 {
			g := mine[1+i]
			parts = append(parts, fmt.Sprintf("%s retrying a permanent error no retry fixes: %s", keys(g.Count), text.OneLine(g.Message, 0)))
		}
	}
	if backoff > 0 && failed > 0 {
		parts = append(parts, fmt.Sprintf("%s more failed for good (not retried until their objects change)", text.Thousands(failed)))
	}
	if bk := component(&c, api.SourceBucket); bk != nil && bk.Tokens != nil && *bk.Tokens < 1 {
		est := ""
		if bk.Estimated {
			est = " (estimated)" // replayed over a log's failure lines
		}
		parts = append(parts, fmt.Sprintf("the token bucket is empty%s: retries throttled to %g/s", est, bk.QPS))
	}
	// In an outage the question is when the next retries hit the dependency.
	if n, at := forecastPeak(c.Forecast); d.Situation == SituationOutage && n > 1 {
		parts = append(parts, fmt.Sprintf("next wave of %d %s", n, inSeconds(at)))
	}
	d.Summary = strings.Join(parts, "; ")
	d.Findings = append(d.Findings, herdFindings(c)...)
	if src != nil && !src.SampledAt.IsZero() {
		d.Findings = append(d.Findings, Finding{Code: FindingLogSampled, Message: fmt.Sprintf(
			"The counts are low: %s: after the first %d \"Reconciler error\" lines of a second it keeps 1 in 100, "+
				"so keys failing since have failed more often, and retry later, than estimated. %s",
			sampledWhen(src.SampledAt), api.SampledLines, sampledRemedy)})
	}
	return d
}

// healthySummary says, in a few words, that nothing fails and what the keys do.
func healthySummary(c api.Controller, src *api.ListSource) (string, string) {
	// First: "none failing" (busy's too) would be a guess for these keys.
	if n := c.Counts[api.StateUnknown]; n > 0 {
		return SituationUnknown, unknownSummary(c, src, n)
	}
	running, queued := c.Counts[api.StateRunning], c.Counts[api.StateQueued]
	if running > 0 && queued >= running {
		return SituationBusy, fmt.Sprintf("busy: %s queued behind %s; none failing", keys(queued), text.Plural(running, "running reconcile"))
	}
	if c.Keys == 0 {
		return SituationHealthy, "healthy: no keys yet"
	}
	s := fmt.Sprintf("healthy: %s, none failing", keys(c.Keys))
	if n := c.Counts[api.StateScheduled]; n > 0 {
		s += fmt.Sprintf("; %d polling (RequeueAfter)", n)
	}
	return SituationHealthy, s
}

// unknownSummary says what a log shows of a controller none of whose keys
// is known to fail, n of them unknown: each failed, its retry came, and
// the log has had nothing of it since. At the default verbosity a success
// is not logged, so that silence is no proof of health:
// "unknown: no failure logged since their retries for 2 keys: their state
// is unknown (this log shows no successes)".
func unknownSummary(c api.Controller, src *api.ListSource, n int) string {
	their, retries := "their", "retries"
	if n == 1 {
		their, retries = "its", "retry"
	}
	of := keys(n)
	if n < c.Keys {
		of = fmt.Sprintf("%d of %s", n, keys(c.Keys))
	}
	s := fmt.Sprintf("unknown: no failure logged since %s %s for %s: %s state is unknown", their, retries, of, their)
	if src != nil && src.Verbose {
		s += " (the log shows successes, and none since)"
	} else {
		s += " (this log shows no successes)"
	}
	if n < c.Keys {
		s += "; none of the others failing"
	}
	return s
}

// errorsText is " on one transient error (msg)" or " on 3 errors, most on
// a transient one (msg)"; nothing without groups. An error of no known
// class is "one error", not "one unknown error": its message is known,
// only its class is not (a log does not classify).
func errorsText(groups []api.ErrorGroup, top api.ErrorGroup) string {
	if len(groups) == 0 {
		return ""
	}
	top.Message = text.OneLine(top.Message, maxQuotedError) // a log's may run to thousands of runes
	class := classWord(top.Class)
	if len(groups) == 1 {
		if class == api.ClassUnknown {
			return fmt.Sprintf(" on one error (%s)", text.OneLine(top.Message, 0))
		}
		return fmt.Sprintf(" on one %s error (%s)", class, text.OneLine(top.Message, 0))
	}
	if top.Count == 1 {
		// Groups come largest first: every key has an error of its own, and
		// none is "the largest".
		return fmt.Sprintf(" on %d errors, a different one each (the first: %s)", len(groups), text.OneLine(top.Message, 0))
	}
	if class == api.ClassUnknown {
		return fmt.Sprintf(" on %d errors, %s keys on the largest (%s)", len(groups), text.Thousands(top.Count), text.OneLine(top.Message, 0))
	}
	return fmt.Sprintf(" on %d errors, %d on a %s one (%s)", len(groups), top.Count, class, text.OneLine(top.Message, 0))
}

// lasted reports whether a group has failed for LongFailure already.
func lasted(g api.ErrorGroup, now time.Time) bool {
	return !g.FirstSeen.IsZero() && now.Sub(g.FirstSeen) >= LongFailure
}

// herdFindings warns of a retry wave nothing paces: only a limiter with no
// token bucket lets the keys that failed (or polled) together come due together.
func herdFindings(c api.Controller) []Finding {
	if component(&c, api.SourceBucket) != nil {
		return nil
	}
	n, at := forecastPeak(c.Forecast)
	if n < HerdKeys {
		return nil
	}
	return []Finding{{Code: FindingHerd, Message: fmt.Sprintf(
		"%s retries fall due in the same second (%s) and nothing paces them (no token bucket): they arrive as a herd; %s.",
		text.Thousands(n), inSeconds(at), jitterRemedy)}}
}

// forecastPeak is the largest count of the forecast and its second.
func forecastPeak(f []int) (n, at int) {
	for i, v := range f {
		if v > n {
			n, at = v, i
		}
	}
	return n, at
}

// inSeconds is "in 4s" for the forecast's second 4, "in under 1s" for second 0.
func inSeconds(i int) string {
	if i == 0 {
		return "in under 1s"
	}
	return fmt.Sprintf("in %ds", i)
}

// keys is "1 key", "100 keys".
func keys(n int) string { return text.Plural(n, "key") }

// sinceClock is " since 08:01:07", or nothing when unknown.
func sinceClock(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return " since " + text.TimeOfDay(t)
}

// forText is " for 12m0s", or nothing when unknown.
func forText(t, now time.Time) string {
	if t.IsZero() {
		return ""
	}
	return " for " + text.FormatDuration(now.Sub(t))
}

// permanentGroupFinding is the advice for a controller whose keys back off
// on a permanent error: what the error names, which the reader can change,
// first. Read from a log, the controller is likely not the reader's own
// (kube-controller-manager's): that alone, as for a key's (errorFinding);
// from an endpoint, the code change after it, labelled the author's.
func permanentGroupFinding(src *api.ListSource) Finding {
	const retrying = "Retrying cannot fix an error only " + aChangeFixes + " can, and the growing backoff delays that change: " +
		"fix what the error names, in each failing key's object or in what it depends on."
	if src.Logged() {
		return Finding{Code: FindingPermanent, Message: retrying}
	}
	return Finding{Code: FindingPermanent, Message: retrying + " " + forAuthors +
		"record it as a status condition and an Event and return a TerminalError (or no error) instead of retrying."}
}

// outageFinding is the advice for a controller whose keys back off together
// on a transient error: leave the backoff to it, and once the dependency
// is back, retry the keys now. An endpoint's keys are forgotten at once,
// spread over a minute; a log's cannot be (forget refuses --from-logs: a
// log does not reach the queue), so kick, which touches the objects, is
// named for a few of the group's keys, as a key's own advice names it.
func outageFinding(c api.Controller, src *api.ListSource, top api.ErrorGroup) Finding {
	const why = "What the controller depends on is failing, and the backoff is doing its job: nothing to change in the controller. " +
		"Once the dependency is back, "
	if !src.Logged() && requeues(&c) {
		return suggestion(FindingTransient, why,
			Command{Verb: "forget", Flags: []Flag{{"controller", ShellQuote(c.Name)}, {Name: "all"}, {"state", "backoff"}, {Name: "requeue"}, {"spread", "1m"}}},
			" retries the keys now, spread over a minute, instead of after their delays.")
	}
	words := make([]string, 0, 3)
	for _, k := range top.Examples[:min(len(top.Examples), cap(words))] {
		words = append(words, ShellQuote(k))
	}
	if len(words) == 0 {
		words = append(words, "KEY...")
	}
	if !src.Logged() {
		// An endpoint that cannot requeue (its queue not instrumented, or
		// forget not allowed): a forget would keep each pending retry's time.
		return suggestion(FindingTransient, why+"each key retries at its next retry on its own; ",
			Command{Verb: "kick", Flags: []Flag{{"controller", ShellQuote(c.Name)}}, Words: words},
			" retries those now instead (it touches the objects: this endpoint cannot requeue keys; their failure counts stay).")
	}
	return suggestion(FindingTransient, why+"each key retries at its next retry on its own; ",
		Command{Verb: "kick", Target: true, Flags: []Flag{{Name: "from-logs"}}, Words: words},
		" retries those now instead (it touches the objects: a log cannot reach the queue to forget them; their failure counts stay).")
}
