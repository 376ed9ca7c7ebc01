package cli

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/describe"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/objstatus"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// The printer of describe: a key's description, a controller's diagnosis.

func printControllerDiagnosis(w io.Writer, d explain.ControllerDiagnosis) {
	w = text.PrintableWriter(w) // text from the cluster: see text.Printable
	fmt.Fprintf(w, "Controller:  %s\n", d.Controller)
	fmt.Fprintf(w, "Situation:   %s\n\n", d.Situation)
	fmt.Fprintln(w, "Diagnosis:")
	width := screenWidth(w)
	for _, line := range append([]string{d.Summary}, d.Details...) {
		writeProse(w, "  ", line, width)
	}
	for _, f := range d.Findings {
		writeProse(w, "  ", "! "+f.Message, width)
	}
}

// printDescription prints d; noObject says why, when it was not read.
func printDescription(w io.Writer, d *describe.Description, noObject string) {
	w = text.PrintableWriter(w) // text from the cluster: see text.Printable
	k, now := d.Key, d.Key.ServerTime
	fmt.Fprintf(w, "Key:         %s\n", text.Cell(k.Key.Key, text.MaxName))
	fmt.Fprintf(w, "Controller:  %s", text.Cell(k.Controller, text.MaxName))
	if d.Controller != nil && d.Controller.Kind != nil {
		// The core group with no version read ("ConfigMap", not "ConfigMap ").
		gv := strings.Trim(d.Controller.Kind.Group+"/"+d.Controller.Kind.Version, "/")
		fmt.Fprintf(w, " (%s)", strings.TrimSpace(d.Controller.Kind.Kind+" "+gv))
	}
	fmt.Fprintln(w)
	if k.Pod != "" {
		fmt.Fprintf(w, "Pod:         %s\n", k.Pod)
	}
	fmt.Fprintf(w, "State:       %s\n\n", k.State)

	fmt.Fprintln(w, "Diagnosis:")
	width := screenWidth(w)
	for _, line := range append([]string{d.Diagnosis.Summary}, d.Diagnosis.Details...) {
		writeProse(w, "  ", line, width)
	}
	for _, f := range d.Diagnosis.Findings {
		writeProse(w, "  ", "! "+f.Message, width)
	}

	if d.Source.Ended() {
		// A saved log: "5s", "36s ago" count from its end, not from now.
		fmt.Fprintf(w, "\nCounters (as of the log's last line, %s):\n", text.TimeOfDay(d.Source.EndsAt))
	} else {
		fmt.Fprintln(w, "\nCounters:")
	}
	// A log without its successes cannot say the failures are consecutive.
	fmt.Fprintf(w, "  Failures:       %s\n", explain.CountersText(k.KeyDetail.Key, d.Source))
	fmt.Fprintf(w, "  Next retry:     %s\n", nextRetryLine(k.KeyDetail.Key, now))
	fmt.Fprintf(w, "  Delay:          %s\n", delayText(k.Delay.Duration, k.DelaySource))
	fmt.Fprintf(w, "  Failing since:  %s\n", sinceWhen(k.FirstFailureAt, now))
	fmt.Fprintf(w, "  Last success:   %s\n", explain.LastSuccessText(k.KeyDetail.Key, now))
	fmt.Fprintf(w, "  Last event:     %s\n", ago(k.LastEventAt, now))
	fmt.Fprintf(w, "  Last reconcile: %s, took %s\n", ago(k.LastReconcileAt, now), dur(k.LastDuration.Duration))

	printHistory(w, k.History, k.Reconciles)

	printObjectStatus(w, d, noObject)
}

// printHistory prints the attempts, oldest first (the last of reconciles,
// the key's count, when it has more), with why each one ran:
// sixteen attempts 50s apart under a 50s delay read as backoff ignored until
// the TRIGGER column says they were watch events. The column is kept narrow
// (explain.TriggerCell): an inferred trigger's sentence is said once under
// the table, so that the table fits a terminal of 80 or 120 columns.
// legendWidth is the width the legend under the History table is wrapped
// to: the narrowest terminal it is read on.
const legendWidth = 80

// maxHistoryError bounds each attempt's error in describe's history on a
// terminal, in runes: the diagnosis above quotes the last one; a log's
// error of thousands of runes, whole on every row, pushed the table off
// the screen. A pipe gets them whole, as kubectl prints for grep.
const maxHistoryError = 120

func printHistory(w io.Writer, hist []api.Attempt, reconciles int) {
	w = text.PrintableWriter(w) // text from the cluster: see text.Printable
	if reconciles > len(hist) && len(hist) > 0 {
		// The history keeps the last attempts: 16 rows under "19
		// consecutive failures", the first a retry of nothing shown, read
		// as attempts lost.
		fmt.Fprintf(w, "\nHistory (the last %d of %d reconciles, oldest first):\n", len(hist), reconciles)
	} else {
		fmt.Fprintln(w, "\nHistory (oldest first):")
	}
	if len(hist) == 0 {
		fmt.Fprintln(w, "  none recorded yet")
		return
	}
	writeHistory(w, hist, screenWidth(w), fit(w, maxHistoryError))
	// A trigger a log without successes only lets us infer is a word in the
	// table, its sentence once here; -o json has every attempt whole.
	if legend := explain.TriggerLegend(hist); len(legend) > 0 {
		fmt.Fprintln(w, "  ? inferred, the log not showing successes:")
		word := 0
		for _, l := range legend {
			word = max(word, len(l[0]))
		}
		for _, l := range legend {
			s := fmt.Sprintf("%-*s  %s", word, l[0], l[1])
			for _, line := range text.WrapIndent(s, legendWidth-4, word+2) {
				fmt.Fprintln(w, "    "+line)
			}
		}
	}
}

func printObjectStatus(w io.Writer, d *describe.Description, noObject string) {
	w = text.PrintableWriter(w) // text from the cluster: see text.Printable
	fmt.Fprintln(w, "\nObject:")
	switch {
	case d.ObjectErr != nil:
		fmt.Fprintf(w, "  could not read it: %v\n", d.ObjectErr)
		return
	case d.Object == nil:
		fmt.Fprintln(w, "  not read: "+noObject)
		return
	}
	o := d.Object
	obs := "none"
	v := o.Verdict
	if v.ObservedGeneration != nil {
		obs = fmt.Sprint(*v.ObservedGeneration)
	}
	if v.Generation != 0 || v.ObservedGeneration != nil { // a ConfigMap has no generation: not "0"
		fmt.Fprintf(w, "  Generation:  %d (status.observedGeneration: %s)\n", v.Generation, obs)
	}
	if v.Status != "" {
		// The verdict `why` gives, by the same rule (objstatus).
		fmt.Fprintf(w, "  Verdict:     %s\n", objstatus.Line(v, o.SpecChange, func(t time.Time) string { return ago(t, d.Key.ServerTime) }))
		if v.Message != "" && (v.Status == objstatus.Failed || v.Override != "") {
			fmt.Fprintf(w, "               %s\n", oneLine(v.Message, fit(w, 160)))
		}
	}
	if o.DeletionTimestamp != nil {
		fmt.Fprintf(w, "  Deleting since %s; finalizers: %s\n", text.TimeOfDay(*o.DeletionTimestamp), strings.Join(o.Finalizers, ", "))
	}
	tw := newTable(w)
	if len(v.Conditions) > 0 {
		fmt.Fprintln(tw, "  CONDITION\tSTATUS\tREASON\tMESSAGE")
		for _, c := range v.Conditions {
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", c.Type, c.Status, dash(c.Reason), dash(oneLine(c.Message, fit(w, 80))))
		}
	}
	if len(o.Events) > 0 {
		fmt.Fprintln(tw, "\n  EVENT\tREASON\tCOUNT\tLAST SEEN\tMESSAGE")
		for _, e := range o.Events {
			fmt.Fprintf(tw, "  %s\t%s\t%d\t%s\t%s\n", e.Type, e.Reason, e.Count, ago(e.LastSeen, d.Key.ServerTime), oneLine(e.Message, fit(w, 80)))
		}
	}
	tw.Flush()
}

// nextRetryLine is the key's next-retry column with the time it names.
func nextRetryLine(k api.Key, now time.Time) string {
	s := explain.NextRetryText(k, now)
	if (k.State == api.StateBackoff || k.State == api.StateScheduled) && !k.NextRetryAt.IsZero() {
		s += " (at " + text.TimeOfDay(k.NextRetryAt) + ")"
	}
	return s
}

// delayText is the Delay counter: the delay and the limiter that chose it,
// "10s (item-exponential)"; a key with neither (idle, failed) is "-", not
// "- (-)".
func delayText(d time.Duration, source string) string {
	if source == "" {
		return dur(d)
	}
	return dur(d) + " (" + source + ")"
}
