package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/why"
)

// TestWhyListKinds: `why jobs,pvc -A` listed a Job and a claim under NAME
// alone, so which row was which was left to guess; with more than one
// kind, a KIND column says it as kubectl get does (job.batch,
// persistentvolumeclaim); with one kind, none.
func TestWhyListKinds(t *testing.T) {
	job := &why.Answer{Object: why.Object{APIVersion: "batch/v1", Kind: "Job", Namespace: "psa", Name: "priv"},
		Verdict: why.Verdict{Status: why.InProgress, Message: `9 FailedCreate events since the last change: pods "priv-x7k2p" is forbidden: violates PodSecurity "restricted:latest": privileged`}}
	claim := &why.Answer{Object: why.Object{APIVersion: "v1", Kind: "PersistentVolumeClaim", Namespace: "default", Name: "data"},
		Verdict: why.Verdict{Status: why.InProgress, Message: "Pending"}}
	var b bytes.Buffer
	printAnswerList(&b, []*why.Answer{job, claim}, true)
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "NAMESPACE") || strings.Fields(lines[0])[1] != "KIND" {
		t.Fatalf("list:\n%s\nwant a heading NAMESPACE KIND NAME … and two rows", b.String())
	}
	for i, want := range []string{"psa job.batch priv", "default persistentvolumeclaim data"} {
		if got := strings.Join(strings.Fields(lines[i+1])[:3], " "); got != want {
			t.Errorf("row %d begins %q; want %q", i+1, got, want)
		}
	}
	b.Reset()
	printAnswerList(&b, []*why.Answer{job}, true)
	if strings.Contains(b.String(), "KIND") {
		t.Errorf("one kind, yet a KIND column:\n%s", b.String())
	}
}
