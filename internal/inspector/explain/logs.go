package explain

import (
	"fmt"
	"strconv"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// explainUnknown is the summary of a key reconstructed from a controller's
// log (c, when known) that went quiet after an error: what is known, and
// what is not. A key gone quiet is known only from a log without
// successes: its failures are the ones logged, not said to be consecutive.
func explainUnknown(k api.Key, src *api.ListSource, c *api.Controller) string {
	due := "about " + text.TimeOfDay(k.NextRetryAt) + " (estimated)"
	if !k.Estimated {
		due = "at " + text.TimeOfDay(k.NextRetryAt) + " (stated by the log)"
	}
	last := "the last at " + text.TimeOfDay(lastErrorAt(k))
	if lastErrorAt(k).IsZero() {
		last = "the last with its time unknown (its line's time could not be read)"
	}
	// A reconcile that returned Requeue: true is counted by the limiter as
	// a failure, but no error was logged: "1 failure logged" would be
	// false.
	counted := text.Plural(k.Failures, "failure") + " logged"
	if requeuedWithoutError(k) {
		counted = text.Plural(k.Failures, "failure") + " counted (the last reconcile returned Requeue: true, not an error)"
	}
	s := fmt.Sprintf("Unknown: %s, %s; its retry was due %s and nothing was logged since.", counted, last, due)
	if k.NextRetryAt.IsZero() {
		s = fmt.Sprintf("Unknown: %s; nothing was logged since.", counted)
	}
	// A log read from the middle of a streak counts only its part: the
	// limiter's count, and so its delay, are larger than estimated.
	longer := ""
	if k.Estimated && statedBefore(k) == 0 {
		longer = "or its backoff is longer than estimated: failures before the first line read are not counted; "
	}
	if src != nil && src.Verbose {
		// This log shows successes (V(5), Flux, Crossplane in debug): the
		// retry would have logged one, or a failure. Saying it "does not
		// show its successes" would contradict the Source section.
		return s + " This log shows successes, and none of this key since: the retry has not run, " + longer +
			"or it waits for a free worker; or the log is missing lines (an excerpt, a filter such as grep, a sampled logger)."
	}
	how, _ := successesHowFor(k, src, c)
	if how == "" {
		return s + " The retry may have succeeded (this log does not show its successes), " + longer + "or it waits for a free worker. " + remedyFor(k, src, c)
	}
	return s + " The retry may have succeeded (success is not logged at the default verbosity), " + longer +
		"or it waits for a free worker. Run the controller at " + how + " to see successes."
}

// logNote says where a log-sourced key's numbers come from: the retry the
// log stated (Flux's "next try in"), or an estimate from the limiter the
// log's controller is read to run (c's description says which and why).
func logNote(k api.Key, c *api.Controller) string {
	const read = "Read from the controller's log: failures count from the start of the log read; "
	switch {
	case k.DelaySource == api.SourceQueue:
		return read + "the next retry is the priority queue's own, from its workqueue_items line (V(5)), not an estimate."
	case !k.Estimated:
		return read + "the next retry is the one the log states, not an estimate: " + statedText(k) + "."
	case k.DelaySource == api.SourceDoubling:
		// The controller's limiter estimate is not what chose this key's
		// delay: naming it here would contradict the diagnosis above it.
		return read + "delays and retry times are estimates, from the gaps of this key's own failures, which double: its controller's own per-item exponential, not the limiter assumed for the controller's other keys."
	case k.DelaySource == api.SourceWaited:
		// As for doubling: the key's own line, not the controller's
		// assumed limiter, gave this delay.
		return read + "delays and retry times are estimates, from the delay the key's last failure line states its attempt waited (" + strconv.QuoteToGraphic(k.DelayWords) + "): the per-item exponential's next step, twice it, whatever failures came before the log."
	case c != nil && c.Limiter.Description != "":
		return read + "delays and retry times are estimates, from " + c.Limiter.Description + "."
	}
	return read + "delays and retry times are estimates from controller-runtime's default limiter."
}

// statedText says a delay is the one the log states, quoting the log's own
// words (escaped: they are the log's text): `the log states this delay:
// "Retrying in 2m40s"`.
func statedText(k api.Key) string {
	if k.DelayWords == "" {
		return "the log states this delay"
	}
	return "the log states this delay: " + strconv.QuoteToGraphic(k.DelayWords)
}

// genericNote says a key was read by the generic reader of the work-queue
// idiom, and shows the line it read, escaped: it is the log's text.
func genericNote(k api.Key) string {
	s := "Read by the generic reader of the work-queue idiom (no dialect knows this controller's words; " +
		"its limiter is assumed to be client-go's default), from the line " + strconv.QuoteToGraphic(k.LogLine) + "."
	if k.LogEvidence != "" {
		// What decided it is read from the log's text: escaped too.
		s += " Read as a failed attempt by " + text.Printable(k.LogEvidence) + "."
	}
	return s
}

// controllerWordsNote says where the name of a log-read key's controller
// came from when the log names none: the words of its failure line
// (ControllerWords, the handler its error names), quoted: the log's text.
func controllerWordsNote(k api.Key) string {
	return "Its controller's name is the one its errors give what failed, " + strconv.QuoteToGraphic(k.ControllerWords+": …") +
		": the log's lines name no controller."
}

// dialectEvidenceNote says what decided a named dialect's failure beyond its
// own line: its key, read from another line of its attempt (a "Reconciler
// error" whose logger dropped the request). Escaped: it quotes the log.
func dialectEvidenceNote(k api.Key) string {
	return "Its failure line names no key: " + text.Printable(k.LogEvidence) + "."
}

// sampledNote warns that a log-sourced key's failures are undercounted: it
// failed after the log showed the signature of zap's sampler.
func sampledNote(k api.Key, src *api.ListSource) string {
	if src == nil || src.SampledAt.IsZero() || k.Failures == 0 || lastErrorAt(k).Before(src.SampledAt) {
		return ""
	}
	return fmt.Sprintf("The failure count may be low: %s: after the first %d \"Reconciler error\" lines of a second it keeps 1 in 100, "+
		"so this key may have failed more often, and its retry come later, than estimated. %s",
		sampledWhen(src.SampledAt), api.SampledLines, sampledRemedy)
}

// sampledWhen says when the log first showed the sampler's signature.
func sampledWhen(at time.Time) string {
	return fmt.Sprintf("from %s the log shows the signature of controller-runtime's production logger, which samples", text.TimeOfDay(at))
}

// sampledRemedy is how to get every line.
const sampledRemedy = "For every line, run the controller with --zap-devel or --zap-log-level=5, or instrument it."

// lastErrorAt is when a key last failed: its last error's time, else its
// last reconcile's (a failed key's terminal error, a log's quiet key).
func lastErrorAt(k api.Key) time.Time {
	if k.LastError != nil {
		return k.LastError.At
	}
	return k.LastReconcileAt
}

// unlogged says a key's count and its attempts' triggers are read off a log
// that shows no success (its source's Verbose false, or not known):
// a success between two logged failures would have restarted the count
// unseen, and an attempt off its retry's time may be an event or follow
// such a success. The instrument, and a log with V(5) lines, show both.
func unlogged(k api.Key, src *api.ListSource) bool {
	return k.Source == api.SourceLogs && (src == nil || !src.Verbose)
}

// FailuresText is the key's failure count: "17 consecutive failures", or,
// read off a log that shows no success, "4 failures logged since 10:00:00"
// (since the streak's first logged failure, when its time is known); none
// since a reset, "0 since the forget at 10:00:00": its last attempt
// failed, its retry may still be pending, and "0 consecutive failures"
// beside "failing on it" would read as a contradiction.
func FailuresText(k api.Key, src *api.ListSource) string {
	if r := k.LastReset; r != nil && k.Failures == 0 {
		if r.By == api.ResetGaveUp {
			return "0 since the controller gave up at " + text.TimeOfDay(r.At)
		}
		return "0 since the " + r.By + " at " + text.TimeOfDay(r.At)
	}
	if !unlogged(k, src) {
		return text.Plural(k.Failures, "consecutive failure")
	}
	if n := statedBefore(k); n > 0 {
		return statedCountText(k, n)
	}
	s := text.Plural(k.Failures, "failure") + " logged"
	if !k.FirstFailureAt.IsZero() && k.Failures > 0 { // none since a forget: the streak's start is not theirs
		s += " since " + text.TimeOfDay(k.FirstFailureAt)
	}
	return s
}

// unloggedNote says, for a failing key read off a log that shows no
// success, what its count and triggers cannot show; with how many of its
// attempts came off their retry's time (api.TriggerSooner, TriggerLate).
// c is the key's controller, when known: its own advice (verboseRemedy).
func unloggedNote(k api.Key, src *api.ListSource, c *api.Controller) string {
	if !unlogged(k, src) || k.Failures < 2 || statedBefore(k) > 0 {
		// One failure is no streak: nothing is said of one; a count the
		// log states is the limiter's, consecutive.
		return ""
	}
	if s := newStreakNote(k); s != "" {
		return s + " " + remedyFor(k, src, c)
	}
	why := "Successes are not in this log"
	switch how, own := successesHowFor(k, src, c); {
	case own:
		why += " (it was not written at " + how + ")"
	case how != "":
		why += " (it has no V(5) lines)" // the levels of the dialect that advises one
	}
	s := fmt.Sprintf("%s, so the %s may not be consecutive: "+
		"a success in between would have restarted the count, and the delay, unseen.", why, text.Plural(k.Failures, "failure"))
	sooner, late := offRetry(k.History)
	if sooner+late > 0 {
		s += fmt.Sprintf(" %d of the last %d attempts came off their retry's time (%d sooner, %d later): "+
			"each a watch event, or a success not logged and then an event; the log cannot tell which.",
			sooner+late, len(k.History), sooner, late)
	}
	return s + " " + remedyFor(k, src, c)
}

// offRetry counts the attempts of a history read off a log without
// successes that came well before (sooner) or after (late) their retry.
func offRetry(h []api.Attempt) (sooner, late int) {
	for _, a := range h {
		switch a.Trigger {
		case api.TriggerSooner:
			sooner++
		case api.TriggerLate:
			late++
		}
	}
	return sooner, late
}

// successesHow is the verbosity at which c logs the successes its log's
// dialect reads, as the dialect advises (controller-runtime's
// --zap-log-level=5 on zap, -v=5 on klog); empty when the dialect advises
// none (cert-manager's and prometheus-operator's lines read no success),
// and then no level is said. own says the level is c's alone
// (api.Controller.SuccessesHow: kube-controller-manager's --v=4 for the
// controllers that log each sync's end, none for its HPA's), not the log's.
func successesHow(src *api.ListSource, c *api.Controller) (how string, own bool) {
	switch {
	case c != nil && c.SuccessesHow != "":
		return c.SuccessesHow, true
	case src == nil:
		return "", false
	}
	return src.SuccessesHow, false
}

// verboseRemedy is how to get c's successes into its log: the level its
// dialect advises, else instrumenting alone.
func verboseRemedy(src *api.ListSource, c *api.Controller) string {
	switch how, own := successesHow(src, c); {
	case own:
		// A program the reader runs, not builds (kube-controller-
		// manager): its flag, and no "instrument it".
		return "Run the controller at " + how + ": it then logs its successes, and they are read."
	case how != "":
		return "Run the controller at " + how + " (it then logs its successes), or instrument it."
	}
	// No level makes this log show successes (cert-manager's, kube-
	// controller-manager's HPA and PersistentVolume binder): "instrument
	// it" alone is a dead end for a controller the reader does not build;
	// the object's status is not.
	return "No level I know of makes this controller log its successes: the object's status shows them (kubectl backoff why TYPE/NAME reads it), and so does the instrument, in a controller you build."
}

// newStreakNote says that log mode restarted the key's streak at a fresh
// ramp (api.TriggerNewStreak on the streak's first attempt): "A new streak
// from 10:10:03: 13 failures in a fresh ramp, so a success in between was
// not logged." Empty when the streak was not restarted so.
func newStreakNote(k api.Key) string {
	for _, a := range k.History {
		if a.Trigger == api.TriggerNewStreak && a.At.Equal(k.FirstFailureAt) {
			return fmt.Sprintf("A new streak from %s: %s in a fresh ramp (gaps growing as the limiter's delays from a count of 1, far shorter than the earlier count allows), "+
				"so a success in between was not logged; the count and delay are this streak's.",
				text.TimeOfDay(a.At), text.Plural(k.Failures, "failure"))
		}
	}
	return ""
}
