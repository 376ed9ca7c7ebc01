package cli

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/why"
)

// whyOutageAnswer is `why configmap/outage-00001 -n demo` on
// hack/try-cluster.sh as a newcomer read it at 80 columns: the terminal
// broke its answer, its evidence, "Found by" and its last error mid-word
// ("nex\nt retry"), its forget command too.
func whyOutageAnswer() *why.Answer {
	now := time.Date(2026, 12, 7, 11, 0, 0, 0, time.UTC)
	const forget = "kubectl backoff forget deploy/demo -n demo --requeue --controller outage demo/outage-00001"
	const outage = "sync with inventory API: PUT https://inventory.demo.svc/v1/items/outage-00001: 503 Service Unavailable"
	return &why.Answer{Object: why.Object{APIVersion: "v1", Kind: "ConfigMap", Name: "outage-00001", Namespace: "demo"}, Now: now,
		Verdict: why.Verdict{Status: why.InProgress, Evidence: []string{
			"a ConfigMap has no status: judged by what its controller says of the key, which it reports failing (the endpoint of the pods below)"}},
		Summary: `InProgress: controller "outage" is failing on it: 4 consecutive failures, next retry in 20s (exact, read from the controller's queue).`,
		Next: []string{"Nothing to fix in the object: what the controller depends on is failing (a transient error: " + outage + "); the backoff retries it",
			"Once that is back, retry at once: `" + forget + "`   (resets the backoff and retries now)"},
		Controller: &why.Controller{Rule: why.RuleAddr, Target: "127.0.0.1:8082", Instrumented: true,
			How: "the instrumented pod demo-7d9f8b6c5d-x2k4p in namespace demo serves a controller of kind ConfigMap (its endpoint's v1/controllers)"},
		Backoff: &why.Backoff{Source: why.SourceEndpoint, Controller: "outage", ServerTime: now,
			Key: &api.Key{Key: "demo/outage-00001", State: api.StateBackoff, Failures: 4, NextRetryAt: now.Add(20 * time.Second),
				LastError: &api.ErrorRecord{Message: outage, Class: api.ClassTransient, At: now.Add(-time.Second)}}},
	}
}

// TestWhyFitsATerminal: on an 80-cell terminal no line of why's answer is
// wider than the screen, but for the one that holds its forget command
// whole; no word is split; a sentence's later lines are indented under
// it, a field's under its value. Piped, every sentence is one line.
func TestWhyFitsATerminal(t *testing.T) {
	a := whyOutageAnswer()
	const forget = "`kubectl backoff forget deploy/demo -n demo --requeue --controller outage demo/outage-00001`"
	var piped bytes.Buffer
	printAnswer(&piped, a)

	undo := screenWidthForTest(80)
	var b bytes.Buffer
	printAnswer(&b, a)
	undo()
	out := b.String()
	for line := range strings.Lines(out) {
		line = strings.TrimSuffix(line, "\n")
		if w := ansi.StringWidth(line); w > 80 && strings.TrimSpace(line) != forget {
			t.Errorf("a line of %d cells on an 80-cell terminal: %q", w, line)
		}
	}
	if !strings.Contains(out, "\n    "+forget+"\n") {
		t.Errorf("the forget command is not whole on a line of its own, under its step:\n%s", out)
	}
	for _, word := range []string{"retry", "https://inventory.demo.svc/v1/items/outage-00001:", "v1/controllers)", "Unavailable"} {
		for _, field := range strings.Fields(out) {
			if strings.HasPrefix(word, field) && field != word && len(field) > 2 {
				t.Errorf("%q split as %q:\n%s", word, field, out)
			}
		}
	}
	if !strings.Contains(out, "\n  Found by:       addr: the instrumented pod") || !strings.Contains(out, "\n                  demo serves a controller") {
		t.Errorf("Found by does not wrap under its value:\n%s", out)
	}
	if !strings.Contains(out, "\n  Last error:     sync with inventory API:") {
		t.Errorf("no Last error field:\n%s", out)
	}
	// The same words, in the same order, whatever the width.
	if got, want := strings.Join(strings.Fields(out), " "), strings.Join(strings.Fields(piped.String()), " "); got != want {
		t.Errorf("wrapped, the answer says other words:\n%s\npiped:\n%s", got, want)
	}

	// Piped: each sentence on one line, as before the wrap.
	p := piped.String()
	for _, want := range []string{"\n  " + a.Summary + "\n", "\n  > " + a.Next[1] + "\n", "\n  " + a.Verdict.Evidence[0] + "\n",
		"\n  Found by:       addr: " + a.Controller.How + "\n"} {
		if !strings.Contains(p, want) {
			t.Errorf("piped, the line %q is not whole:\n%s", want, p)
		}
	}
}
