package cli

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/objstatus"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/why"
)

// TestPrintAnswerWrapsConditions: the Deployment of the Kubernetes
// documentation's "Failed Deployment" (why's testdata) has a ReplicaFailure
// whose message says "exceeded quota" past the 80th rune; why prints it
// whole, wrapped in its column, and the same for an event.
func TestPrintAnswerWrapsConditions(t *testing.T) {
	a, msg := replicaFailureAnswer(t)
	a.Events[0].Message += "\x1b[31m"
	var out bytes.Buffer
	printAnswer(&out, a)
	text := out.String()
	if strings.Contains(text, "…") {
		t.Errorf("a message was cut:\n%s", text)
	}
	if strings.Contains(text, "\x1b") {
		t.Errorf("an escape character reached the output:\n%s", text)
	}
	// Joined again, the wrapped lines hold the whole message, twice (the
	// condition and the event).
	if got := strings.Count(strings.Join(strings.Fields(text), " "), msg); got != 2 {
		t.Errorf("the whole message appears %d times, want 2:\n%s", got, text)
	}
	for _, line := range strings.Split(text, "\n") {
		if strings.Contains(line, "exceeded") && len(line) > 140 {
			t.Errorf("line not wrapped (%d wide): %q", len(line), line)
		}
	}
}

// TestListMessageKeepsTheEnd: `why TYPE`'s MESSAGE column is the deciding
// condition, cut at its start when too long, never in its middle.
func TestListMessageKeepsTheEnd(t *testing.T) {
	v := why.Verdict{Status: why.InProgress, Message: "Replicas: 0/2", Conditions: []why.Condition{{Type: "ReplicaFailure", Status: "True", Reason: "FailedCreate",
		Message: `pods "web-69c6f74b8b-bmsrj" is forbidden: exceeded quota: q, requested: pods=1, used: pods=0, limited: pods=0`}}}
	got := listMessage(v, 60)
	if want := "…ota: q, requested: pods=1, used: pods=0, limited: pods=0"; !strings.HasSuffix(got, "limited: pods=0") || len([]rune(got)) != 60 || !strings.HasPrefix(got, "…") {
		t.Errorf("listMessage = %q; want 60 runes ending %q", got, want)
	}
	if got := listMessage(why.Verdict{Status: why.InProgress, Message: "short"}, 60); got != "short" {
		t.Errorf("listMessage = %q; want the short message whole", got)
	}
}

// TestWhyPrinterEscapesEveryControl: the why printer's text passes through
// the one escape, text.Printable: every C0 and C1 control but the layout's
// tab and newline, DEL, and the bidirectional overrides and isolates (a
// log or an object's message could reorder what the terminal shows; the
// CLI's own escape let them through before).
func TestWhyPrinterEscapesEveryControl(t *testing.T) {
	var hostile strings.Builder
	for r := rune(0); r < 0x20; r++ {
		if r != '\t' && r != '\n' {
			hostile.WriteRune(r)
		}
	}
	hostile.WriteRune(0x7f)
	for r := rune(0x80); r <= 0x9f; r++ {
		hostile.WriteRune(r)
	}
	bidi := "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"
	hostile.WriteString(bidi)
	now := time.Date(2026, 12, 3, 10, 0, 0, 0, time.UTC)
	a := &why.Answer{Object: why.Object{APIVersion: "v1", Kind: "ConfigMap", Name: "x", Namespace: "default"}, Now: now,
		Summary: "summary " + hostile.String(),
		Events:  []objstatus.Event{{Type: "Warning", Reason: "Failed", Count: 1, LastSeen: now, Message: "event " + hostile.String()}}}
	var out bytes.Buffer
	printAnswer(&out, a)
	for _, r := range out.String() {
		if (r < 0x20 && r != '\t' && r != '\n') || (r >= 0x7f && r <= 0x9f) || strings.ContainsRune(bidi, r) {
			t.Fatalf("why printed %U raw:\n%q", r, out.String())
		}
	}
	if !strings.Contains(out.String(), `\u202e`) {
		t.Errorf("the right-to-left override is not shown escaped:\n%s", out.String())
	}
}

// TestWhyTablesFitATerminal: on an 80-cell terminal the CONDITION and
// Events tables wrap their messages in what the other columns leave, so no
// line is wider than the screen (a fixed 80-cell message column made each
// line some 40 cells too wide, wrapped twice by the terminal), or, where
// they leave too little (a long REASON), under its row; the message is
// still whole.
func TestWhyTablesFitATerminal(t *testing.T) {
	a, msg := replicaFailureAnswer(t)
	undo := screenWidthForTest(80)
	var out bytes.Buffer
	printAnswer(&out, a)
	undo()
	text := out.String()
	for line := range strings.Lines(text) {
		if w := ansi.StringWidth(strings.TrimRight(line, " \n")); w > 80 {
			t.Errorf("a line of %d cells on an 80-cell terminal: %q", w, line)
		}
	}
	if got := strings.Count(strings.Join(strings.Fields(text), " "), msg); got != 2 {
		t.Errorf("the whole message appears %d times, want 2:\n%s", got, text)
	}
}

// replicaFailureAnswer is why's answer on the Kubernetes documentation's
// "Failed Deployment" (why's testdata), with the event of its ReplicaFailure,
// and that event's message, whose "exceeded quota" is past the 80th rune.
func replicaFailureAnswer(t *testing.T) (*why.Answer, string) {
	t.Helper()
	b, err := os.ReadFile("../inspector/why/testdata/deployment-replicafailure.yaml")
	if err != nil {
		t.Fatal(err)
	}
	u := &unstructured.Unstructured{}
	if err := yaml.Unmarshal(b, &u.Object); err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 12, 3, 10, 0, 0, 0, time.UTC)
	msg := `Error creating: pods "nginx-deployment-4262182780-" is forbidden: exceeded quota: object-counts, requested: pods=1, used: pods=3, limited: pods=2`
	return &why.Answer{Object: why.Object{APIVersion: "apps/v1", Kind: "Deployment", Name: "nginx-deployment", Namespace: "default"},
		Verdict: why.Judge(u), Now: now,
		Events: []objstatus.Event{{Type: "Warning", Reason: "FailedCreate", Count: 14, LastSeen: now, Message: msg}}}, msg
}
