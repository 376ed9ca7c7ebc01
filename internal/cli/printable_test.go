package cli

import (
	"bytes"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
	"os"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/cluster"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/describe"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/objstatus"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/snapshot"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/why"
)

// hostileText is what an error, a reason or a name from the cluster can
// hold (issue #32): an OSC setting the title ended by BEL, a CSI clearing the
// screen and homing the cursor, a NUL, an 8-bit CSI, a raw 0x9b byte, a
// carriage return, a right-to-left override; then every other C0 and C1
// control, DEL, and every bidirectional control (embeddings, overrides,
// isolates, marks), so that each printer is tried with each.
var hostileText = "\x1b]0;PWNED-TITLE\x07\x1b[2J\x1b[H boom\x00 \u009b31m \x9b \rover \u202eevil " + everyControl()

// everyControl is each character rawControl finds, once.
func everyControl() string {
	var b strings.Builder
	for r := rune(0); r <= 0x9f; r++ {
		if r < 0x20 && r != '\t' && r != '\n' || r == 0x7f || r >= 0x80 {
			b.WriteRune(r)
		}
		if r == 0x1f {
			r = 0x7e // on to DEL
		}
	}
	for _, r := range "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c" {
		b.WriteRune(r)
	}
	return b.String()
}

// rawControl is the first character of out a terminal would act on, or "".
func rawControl(out string) string {
	for i := 0; i < len(out); {
		r, size := utf8.DecodeRuneInString(out[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			return out[i : i+1]
		case r < 0x20 && r != '\t' && r != '\n', r == 0x7f, r >= 0x80 && r <= 0x9f, r >= 0x202a && r <= 0x202e,
			r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f, r == 0x061c:
			return string(r)
		}
		i += size
	}
	return ""
}

// assertPrintable fails when out holds a raw control character, or lost
// the text it escaped (the user still reads what the cluster said).
func assertPrintable(t *testing.T, printer, out string) {
	t.Helper()
	if c := rawControl(out); c != "" {
		t.Errorf("%s printed %q raw:\n%q", printer, c, out)
	}
	if !strings.Contains(out, `\x1b]0;PWNED-TITLE`) {
		t.Errorf("%s does not show the escaped text (\\x1b]0;PWNED-TITLE):\n%s", printer, out)
	}
}

// Every printer of text from the cluster or a log escapes its control
// characters: get's table (narrow and wide, with pods), describe (its
// history rows, conditions, events, finalizers), diff, the error groups,
// why (answer and list), the diagnoses and pods.
func TestEveryPrinterEscapesControlCharacters(t *testing.T) {
	now := time.Date(2026, 12, 3, 10, 0, 0, 0, time.UTC)
	h := hostileText
	key := api.Key{Controller: "ctl" + h, Key: "default/w" + h, State: api.StateBackoff, Failures: 3, DelaySource: h,
		LastError: &api.ErrorRecord{Message: h, At: now.Add(-time.Second), Class: h}, FirstFailureAt: now.Add(-time.Minute)}
	list := &inspector.KeyList{ServerTime: now, Items: []inspector.PodKey{{Key: key, Pod: "ns" + h + "/pod" + h}}}
	hist := []api.Attempt{{At: now.Add(-time.Second), Outcome: "error" + h, Error: h, Class: h, By: h, Reason: h}}
	og := int64(1)
	obj := &objstatus.Object{Kind: "Widget", Name: "w" + h, Finalizers: []string{h},
		Events: []objstatus.Event{{Type: "Warning" + h, Reason: h, Message: h, Count: 2, LastSeen: now}},
		Verdict: objstatus.Verdict{Status: objstatus.Failed, Message: h, Generation: 2, ObservedGeneration: &og,
			Conditions: []objstatus.Condition{{Type: "Ready" + h, Status: "False" + h, Reason: h, Message: h}}}}
	det := &inspector.PodKeyDetail{KeyDetail: api.KeyDetail{ServerTime: now, Key: key}, Pod: "p" + h}
	det.History = hist
	desc := &describe.Description{Key: det, Object: obj, Diagnosis: explain.Diagnosis{Summary: h, Details: []string{h}}}
	answer := &why.Answer{
		Object:     why.Object{APIVersion: "example.com/v1", Kind: "Widget" + h, Namespace: "ns" + h, Name: "w" + h},
		Verdict:    why.Verdict{Status: why.InProgress, Evidence: []string{h}, Message: h, Conditions: []objstatus.Condition{{Type: h, Status: h, Reason: h, Message: h}}},
		Ownership:  why.Ownership{StatusManagers: []why.Change{{Manager: h, Time: now}}},
		Controller: &why.Controller{Manager: h, Rule: h, How: h, Namespace: h, Target: h},
		Backoff:    &why.Backoff{Source: why.SourceEndpoint, Controller: h, ServerTime: now, Key: &key, Note: h},
		Events:     []objstatus.Event{{Type: h, Reason: h, Message: h, LastSeen: now}},
		Summary:    h, Next: []string{h}, Refused: []string{h}, Now: now,
	}
	groups := &api.ErrorGroupList{ServerTime: now, Groups: []api.ErrorGroup{{Controller: h, Count: 2, Class: h, Message: h, Examples: []string{h}}}}
	printers := map[string]func(b *bytes.Buffer){
		"get":              func(b *bytes.Buffer) { printKeys(b, list, false, false) },
		"get -o wide -A":   func(b *bytes.Buffer) { printKeys(b, list, true, true) },
		"describe":         func(b *bytes.Buffer) { printDescription(b, desc, h) },
		"describe history": func(b *bytes.Buffer) { printHistory(b, hist, 0) },
		"describe controller": func(b *bytes.Buffer) {
			printControllerDiagnosis(b, explain.ControllerDiagnosis{Controller: h, Situation: h, Summary: h})
		},
		"diff": func(b *bytes.Buffer) {
			printChanges(b, []snapshot.Change{{Controller: h, Key: h, Changes: []string{snapshot.ErrorChanged, h}, Before: &key, After: &key}})
		},
		"get --group-by error":         func(b *bytes.Buffer) { printErrorGroups(b, groups, false) },
		"get --group-by error -o wide": func(b *bytes.Buffer) { printErrorGroups(b, groups, true) },
		"why":                          func(b *bytes.Buffer) { printAnswer(b, answer) },
		"why TYPE":                     func(b *bytes.Buffer) { printAnswerList(b, []*why.Answer{answer}, true) },
		"pods":                         func(b *bytes.Buffer) { printPods(b, []cluster.Pod{{Namespace: h, Name: h}}) },
	}
	for name, print := range printers {
		var b bytes.Buffer
		print(&b)
		assertPrintable(t, name, b.String())
	}
}

// The root command's stderr (notes, warnings) passes through the same
// sanitiser, and a terminal is still known as one behind it.
func TestRootStderrIsPrintable(t *testing.T) {
	var errOut bytes.Buffer
	w := text.PrintableWriter(&errOut)
	if _, err := w.Write([]byte("note: " + hostileText + "\n")); err != nil {
		t.Fatal(err)
	}
	assertPrintable(t, "stderr", errOut.String())
	if f, ok := fileOf(text.PrintableWriter(os.Stderr)); !ok || f != os.Stderr {
		t.Errorf("fileOf(PrintableWriter(os.Stderr)) = %v, %v; want os.Stderr", f, ok)
	}
}
