package cli

import (
	"fmt"
	"strings"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// What forget prints: the keys forgotten (or, dry, to be), their total,
// and the answer when nothing matched.

// printResponses prints what was forgotten as -o asks; many is whether
// several controllers were asked, which decides the shape (a list) whatever
// number of them answered.
func (o *ForgetOptions) printResponses(resps []*api.ForgetResponse, many bool) error {
	o.warnPermanent(resps)
	if o.output.text() {
		o.printForgotten(resps, many)
		return nil
	}
	var keys []string
	for _, r := range resps {
		for _, k := range r.Keys {
			keys = append(keys, k.Key)
		}
	}
	if !many {
		return o.output.print(o.Out, resps[0], kindKey, keys...)
	}
	return o.output.print(o.Out, resps, kindKey, keys...)
}

// warnPermanent warns on stderr, as kubectl warns, when keys forgotten
// last failed on a permanent error: the TUI's dialog says it, and a forget
// of one key (or --all --yes) said nothing, reading as a fix. The forget is
// done all the same (kubectl delete does not ask; scripts rely on it); a
// confirmation answered said it already, and a dry run's preview says it on
// stdout.
func (o *ForgetOptions) warnPermanent(resps []*api.ForgetResponse) {
	if o.confirmed {
		return
	}
	permanent, count := 0, 0
	for _, r := range resps {
		if !r.DryRun {
			permanent, count = permanent+r.Permanent, count+r.Count
		}
	}
	if p := explain.PermanentAmong(permanent, count, o.Requeue); p != "" {
		fmt.Fprintln(o.ErrOut, "Warning: "+p)
	}
}

// printForgotten prints each controller's keys and the endpoint's summary
// of them; across controllers, those with no key are left out and one
// total closes the list. A dry run says its count first and each key in
// the conditional: nothing happened, and the count is what was asked.
func (o *ForgetOptions) printForgotten(resps []*api.ForgetResponse, many bool) {
	if o.DryRun && many {
		o.printTotal(resps)
	}
	for _, resp := range resps {
		if many && resp.Count == 0 {
			continue
		}
		// Endpoints before this release count in "key(s)": said here as the rest of the CLI says counts.
		summary := strings.Replace(resp.Message, fmt.Sprintf("%d key(s)", resp.Count), text.Plural(resp.Count, "key"), 1)
		if !o.Requeue {
			// The endpoint says "requeue", its field; the user's word is the flag.
			summary = strings.Replace(summary, ": requeue to run", ": --requeue runs", 1)
			if resp.PendingRetryKept {
				summary += " (--requeue retries now)"
			}
		}
		if resp.DryRun {
			fmt.Fprintln(o.Out, summary)
			// As the confirmation says: acting on them will not help.
			if p := explain.PermanentAmong(resp.Permanent, resp.Count, o.Requeue); p != "" {
				fmt.Fprintln(o.Out, p)
			}
		}
		for _, k := range resp.Keys {
			fmt.Fprintln(o.Out, o.forgottenLine(resp, k, many))
		}
		if !resp.DryRun {
			fmt.Fprintln(o.Out, summary)
		}
	}
	if many && !o.DryRun {
		o.printTotal(resps)
	}
}

// forgottenLine is one key of a forget: as it was ("backoff, 15 failures"
// alone read as the state after the reset), and when it is retried.
func (o *ForgetOptions) forgottenLine(resp *api.ForgetResponse, k api.ForgottenKey, many bool) string {
	reset, retried := "reset", "retried"
	if resp.DryRun {
		reset, retried = "to reset", "would be retried"
	}
	line := fmt.Sprintf("%s: was %s, %s %s", k.Key, k.State, text.Plural(k.Failures, "failure"), reset)
	if many {
		line = resp.Controller + " " + line
	}
	switch {
	case k.EarlierRetryIn.Duration > 0:
		// The queue keeps the sooner of two ready times: the retry
		// already pending runs the key before its slot.
		line += fmt.Sprintf(", %s in %s by the retry already pending (its spread slot, in %s, comes after)",
			retried, dur(k.EarlierRetryIn.Duration), dur(k.ReleaseIn.Duration))
	case k.ReleaseIn.Duration > 0:
		line += ", " + retried + " in " + dur(k.ReleaseIn.Duration)
	case (resp.Requeued || resp.DryRun && o.Requeue) && o.Spread > 0:
		// The first slot of a spread is now: said, so that it does
		// not read as the one key left out of the retry. A dry run's
		// preview is never Requeued (nothing was): --requeue says it would be.
		line += ", " + retried + " now"
	}
	return line
}

// printTotal is a forget's count across controllers.
func (o *ForgetOptions) printTotal(resps []*api.ForgetResponse) {
	verb, n, with := "forgot", total(resps), 0
	if o.DryRun {
		verb = "would forget"
	}
	for _, r := range resps {
		if r.Count > 0 {
			with++
		}
	}
	if n == 0 {
		fmt.Fprintf(o.Out, "%s no key: none matched in %s\n", verb, text.Plural(len(resps), "controller"))
		return
	}
	fmt.Fprintf(o.Out, "%s %s in %s\n", verb, text.Plural(n, "key"), text.Plural(with, "controller"))
}

// nothingMatched says that a bulk forget's preview selected no key: there
// is nothing to confirm, so nothing is asked and the command succeeds, as
// it does with --yes. -o json|yaml print the previews (count 0, dryRun:
// nothing was changed); the words go to stdout in text, else to stderr.
func (o *ForgetOptions) nothingMatched(previews []*api.ForgetResponse, controllers int) error {
	where := text.Plural(controllers, "controller")
	if o.Controller != "" {
		where = "controller " + o.Controller
	}
	what := "no key"
	if sel := o.selection(); sel != "" {
		what = "no key matched " + sel
	}
	msg := fmt.Sprintf("nothing to forget: %s in %s", what, where)
	if o.output.text() {
		fmt.Fprintln(o.Out, msg)
		return nil
	}
	fmt.Fprintln(o.ErrOut, msg)
	return o.printResponses(previews, controllers > 1)
}

// selection is --filter and --state as the user wrote them: "-q 503 --state backoff".
func (o *ForgetOptions) selection() string {
	var parts []string
	if o.Filter != "" {
		parts = append(parts, "-q "+explain.ShellQuote(o.Filter))
	}
	if len(o.States) > 0 {
		parts = append(parts, "--state "+strings.Join(o.States, ","))
	}
	return strings.Join(parts, " ")
}

// total is how many keys the responses count.
func total(resps []*api.ForgetResponse) int {
	n := 0
	for _, r := range resps {
		n += r.Count
	}
	return n
}
