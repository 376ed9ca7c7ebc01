package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/objstatus"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/why"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// messageWidth is the column a condition's or an event's message wraps in.
const messageWidth = 80

// printAnswer prints one object's answer in words, as describe does.
func printAnswer(w io.Writer, a *why.Answer) {
	w = text.PrintableWriter(w) // text from the cluster: see text.Printable
	v := a.Verdict
	fmt.Fprintf(w, "Object:      %s", a.Object.Ref())
	if a.Object.Namespace != "" {
		fmt.Fprintf(w, " -n %s", a.Object.Namespace)
	}
	fmt.Fprintln(w)
	width := screenWidth(w)
	writeHanging(w, "Change:      ", "             ", a.GenerationLine(), width)
	fmt.Fprintf(w, "Status:      %s\n\n", objstatus.ObjectWords(v)) // as the TUI says it

	fmt.Fprintln(w, "Answer:")
	// Whole, wrapped between words on a terminal (writeProse): a cut
	// would fall on the cause; its commands, in backticks, never split.
	writeProse(w, "  ", text.Printable(a.Summary), width)
	for _, n := range a.Next {
		writeProse(w, "  ", "> "+text.Printable(n), width)
	}
	for _, r := range a.Refused {
		writeProse(w, "  ", "! "+r, width)
	}

	fmt.Fprintln(w, "\nEvidence:")
	for _, e := range v.Evidence {
		writeProse(w, "  ", text.Printable(oneLine(e, 0)), width)
	}
	if len(v.Conditions) > 0 {
		const head = "  CONDITION\tSTATUS\tREASON\tOBSERVED\tMESSAGE"
		rows := make([][]string, len(v.Conditions))
		for i, c := range v.Conditions {
			obs := "-"
			if c.ObservedGeneration > 0 {
				obs = fmt.Sprintf("gen %d", c.ObservedGeneration)
				if c.Stale {
					obs += " (stale)"
				}
			}
			rows[i] = []string{"  " + c.Type, c.Status, dash(c.Reason), obs}
		}
		msgs := make([]string, len(v.Conditions))
		for i, c := range v.Conditions {
			msgs[i] = c.Message
		}
		writeMessageTable(w, head, rows, msgs, width)
	}

	printWhyChain(w, a)
	printWhyController(w, a)
	printWhyBackoff(w, a)

	printWhyEvents(w, a)
	for _, b := range a.Blockers {
		fmt.Fprintf(w, "\n--- Blocker %s ---\n", b.Object.Ref())
		printAnswer(w, b)
	}
}

// printWhyEvents prints the object's Events: "none" only when they were
// read. A helper, so that an object without Events still has its
// blockers' answers printed after them (an early return skipped them).
func printWhyEvents(w io.Writer, a *why.Answer) {
	fmt.Fprintln(w, "\nEvents:")
	switch {
	case a.EventsNotRead && len(a.Events) == 0:
		fmt.Fprintln(w, "  not read") // the evidence or a refusal says why
		return
	case len(a.Events) == 0:
		fmt.Fprintln(w, "  none")
		return
	}
	const head = "  TYPE\tREASON\tCOUNT\tLAST SEEN\tFIRST SEEN\tMESSAGE"
	rows := make([][]string, len(a.Events))
	msgs := make([]string, len(a.Events))
	for i, e := range a.Events {
		msgs[i] = e.Message
		// A series folded from several events (objstatus.FoldEvents) keeps
		// its first time, as `kubectl events` shows "x39 over 71m".
		first := "-"
		if !e.FirstSeen.IsZero() && e.FirstSeen.Before(e.LastSeen) {
			first = ago(e.FirstSeen, a.Now)
		}
		rows[i] = []string{"  " + e.Type, e.Reason, fmt.Sprint(e.Count), ago(e.LastSeen, a.Now), first}
	}
	writeMessageTable(w, head, rows, msgs, screenWidth(w))
}

func printWhyController(w io.Writer, a *why.Answer) {
	w = text.PrintableWriter(w) // text from the cluster: see text.Printable
	fmt.Fprintln(w, "\nController:")
	width := screenWidth(w)
	o := a.Ownership
	if len(o.StatusManagers) > 0 {
		names := make([]string, len(o.StatusManagers))
		for i, m := range o.StatusManagers {
			names[i] = fmt.Sprintf("%s (%s)", m.Manager, ago(m.Time, a.Now))
		}
		writeField(w, "Status manager", fmt.Sprintf("%s [%s]", strings.Join(names, ", "), o.StatusVia()), width)
	}
	c := a.Controller
	if c == nil {
		fmt.Fprintln(w, "  not searched")
		return
	}
	if c.Found() {
		instr := c.InstrumentedText()
		switch {
		case c.Rule == why.RuleAddr || c.Namespace == "":
			// An address (--addr): no pods and no namespace to name.
			writeField(w, "Endpoint", fmt.Sprintf("%s (%s)", c.Target, instr), width)
		default:
			writeField(w, "Pods", fmt.Sprintf("%s -n %s (%s)", c.Target, c.Namespace, instr), width)
		}
	}
	writeField(w, "Found by", fmt.Sprintf("%s: %s", c.Rule, c.How), width)
}

func printWhyBackoff(w io.Writer, a *why.Answer) {
	w = text.PrintableWriter(w) // text from the cluster: see text.Printable
	b := a.Backoff
	if b == nil && a.BackoffError == "" {
		return
	}
	fmt.Fprintln(w, "\nBackoff:")
	width := screenWidth(w)
	if b == nil {
		writeProse(w, "  ", "could not be read: "+a.BackoffError, width)
		return
	}
	writeField(w, "Source", b.SourceText(), width)
	if b.Note != "" {
		writeField(w, "Note", b.Note, width)
	}
	k := b.Key
	if k == nil {
		writeField(w, "Key", b.NotTracked, width)
		return
	}
	now := a.Clock() // the answer's one clock: the summary's countdown is the same
	fmt.Fprintf(w, "  Key:            %s (controller %s)\n", text.Cell(k.Key, text.MaxName), text.Cell(b.Controller, text.MaxName))
	fmt.Fprintf(w, "  State:          %s\n", k.State)
	fmt.Fprintf(w, "  Failures:       %s\n", explain.FailureCountsText(*k, nil)) // a log's: "logged", not consecutive
	writeField(w, "Next retry", nextRetryLine(*k, now), width)
	if k.Delay.Duration > 0 {
		fmt.Fprintf(w, "  Delay:          %s (%s)\n", dur(k.Delay.Duration), dash(k.DelaySource))
	}
	if e := k.LastError; e != nil {
		class := ""
		if c := explain.ErrorClassText(e.Class); c != "" {
			class = " [" + c + "]"
		}
		writeField(w, "Last error", fmt.Sprintf("%s%s, %s", oneLine(e.Message, fit(w, 120)), class, ago(e.At, now)), width)
	}
}

// listMessage is a list's MESSAGE: the deciding condition, else the
// verdict's message, kept at its end when too long (the cause is at the
// end: "… exceeded quota: q, requested: pods=1").
func listMessage(v why.Verdict, n int) string {
	msg := v.Message
	if c, ok := objstatus.Deciding(v.Conditions); ok && v.Status != why.Current {
		msg = c.Said()
	}
	return keepEnd(text.Printable(oneLine(msg, 0)), n)
}

// keepEnd cuts msg to n runes at its start (n <= 0: whole): the cause is
// at the end.
func keepEnd(msg string, n int) string {
	if r := []rune(msg); n > 0 && len(r) > n {
		return "…" + string(r[len(r)-(n-1):])
	}
	return msg
}

// printAnswerList prints `why TYPE`: one line per object not Current. On
// a terminal, MESSAGE is cut to what the other columns leave of its width,
// or goes under its row when that is under minMessageRoom; piped, whole.
func printAnswerList(w io.Writer, answers []*why.Answer, namespaces bool) {
	w = text.PrintableWriter(w) // text from the cluster: see text.Printable
	head := "NAME\tSTATUS\tWAITING\tCONTROLLER\tBACKOFF\tMESSAGE"
	kinds := manyKinds(answers)
	if kinds {
		head = "KIND\t" + head
	}
	if namespaces {
		head = "NAMESPACE\t" + head
	}
	rows := make([][]string, len(answers))
	for i, a := range answers {
		waiting := "-"
		if a.Waiting.Duration > 0 {
			waiting = text.FormatSeconds(a.Waiting.Duration)
		}
		rows[i] = []string{a.Object.Name, string(a.Verdict.Status), waiting, a.ControllerName(), a.BackoffBrief()}
		if kinds {
			kind, _, _ := strings.Cut(a.Object.Ref(), "/") // job.batch, as kubectl get names it
			rows[i] = append([]string{kind}, rows[i]...)
		}
		if namespaces {
			rows[i] = append([]string{a.Object.Namespace}, rows[i]...)
		}
	}
	screen, width := screenWidth(w), 0 // 0 when piped: whole
	if screen > 0 {
		width = screen - messageColumn(head, rows)
	}
	under := screen > 0 && width < minMessageRoom
	if under {
		// Too narrow for a MESSAGE column (the namespace and a long
		// controller at 80 columns): each message goes under its row,
		// whole and wrapped, as why's condition table does.
		width = 0
	}
	msgs := make([]string, len(answers))
	for i, a := range answers {
		msgs[i] = answerListMessage(a, width)
	}
	if !under {
		writeMessagesBeside(w, head, rows, msgs)
		return
	}
	writeMessagesUnder(w, head, rows, msgs, screen)
}

// manyKinds reports whether answers are of more than one kind (why
// jobs,pvc): the list then says each row's kind, since a name alone does
// not (a Job and its claim are often both "data").
func manyKinds(answers []*why.Answer) bool {
	for _, a := range answers[min(1, len(answers)):] {
		if a.Object.Kind != answers[0].Object.Kind || a.Object.APIVersion != answers[0].Object.APIVersion {
			return true
		}
	}
	return false
}

// answerListMessage is a's MESSAGE in why's list, cut to width runes at its
// start (0: whole): what blocks it where its chain shows one, else its
// deciding condition's or its verdict's message.
func answerListMessage(a *why.Answer, width int) string {
	b, more := a.ChainBlocker()
	if b == nil {
		return listMessage(a.Verdict, width)
	}
	// What blocks it says more than its own condition; its name is kept
	// whole, its line cut at the start (the cause is at the end).
	head := "waits for " + text.Printable(b.Object.Ref()) + ": "
	if width > 0 {
		width = max(minListMessage, width-len(head))
	}
	return head + keepEnd(text.Printable(b.Said()), width) + why.MoreBlockers(more)
}

// minListMessage is the fewest cells why's list cuts a blocker's line to
// after its name: under it the row passes the terminal's edge rather than
// say nothing of the cause.
const minListMessage = 20
