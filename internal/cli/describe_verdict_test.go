package cli

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/describe"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/objstatus"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/why"
)

// describe's object section carries the verdict `why` gives, in the words
// of the same rule, and a failed verdict's message below it.
func TestDescribeObjectVerdict(t *testing.T) {
	now := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	six := int64(6)
	obj := &objstatus.Object{Kind: "Widget", Namespace: "default", Name: "w1",
		Verdict:    objstatus.Verdict{Status: "InProgress", KStatus: "InProgress", Generation: 7, ObservedGeneration: &six, Message: "Widget generation is 7, but latest observed generation is 6"},
		SpecChange: &objstatus.Change{Manager: "kubectl-client-side-apply", Time: now.Add(-12 * time.Minute)}}
	d := &describe.Description{Key: &inspector.PodKeyDetail{KeyDetail: api.KeyDetail{ServerTime: now}}, Object: obj}

	var b bytes.Buffer
	printObjectStatus(&b, d, "")
	want := "  Verdict:     not ready yet (InProgress): generation 7, changed 12m0s ago by kubectl-client-side-apply; the controller has observed 6\n"
	if !strings.Contains(b.String(), want) {
		t.Errorf("object section:\n%s\nwant the line\n%s", b.String(), want)
	}
	if strings.Contains(b.String(), "latest observed generation") {
		t.Errorf("an InProgress verdict printed kstatus's message, which the line already says:\n%s", b.String())
	}

	obj.Verdict.Status, obj.Verdict.Message = "Failed", "storage class gold does not exist"
	b.Reset()
	printObjectStatus(&b, d, "")
	if !strings.Contains(b.String(), "  Verdict:     not ready (Failed): generation 7") || !strings.Contains(b.String(), "\n               storage class gold does not exist\n") {
		t.Errorf("failed verdict: want its line and its message:\n%s", b.String())
	}
}

// A ConfigMap has no generation: describe's object section says none, not
// "Generation: 0", and neither does its verdict line.
func TestDescribeObjectWithoutGeneration(t *testing.T) {
	now := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	obj := &objstatus.Object{Kind: "ConfigMap", Namespace: "demo", Name: "naive-00001",
		Verdict: objstatus.Verdict{Status: objstatus.Current, KStatus: objstatus.Current, KindNoStatus: true}}
	d := &describe.Description{Key: &inspector.PodKeyDetail{KeyDetail: api.KeyDetail{ServerTime: now}}, Object: obj}
	var b bytes.Buffer
	printObjectStatus(&b, d, "")
	if strings.Contains(b.String(), "Generation:") || strings.Contains(b.String(), "generation 0") || !strings.Contains(b.String(), "  Verdict:     ready (Current): the kind has no status") {
		t.Errorf("object section of a ConfigMap:\n%s\nwant no generation, and the verdict", b.String())
	}
}

// why's Status line says the object's status as the TUI does, in one
// function (objstatus.ObjectWords): what it means, the verdict's word kept
// in brackets, and kstatus glossed when evidence overrode it, not
// "InProgress (kstatus alone: Current)", which told a kubectl user nothing.
func TestWhyStatusInWords(t *testing.T) {
	a := &why.Answer{Object: why.Object{Kind: "ConfigMap", Namespace: "w", Name: "c1"},
		Verdict: why.Verdict{Status: why.InProgress, KStatus: why.Current, Override: objstatus.RuleControllerFailing}, Summary: "InProgress: failing."}
	var b bytes.Buffer
	printAnswer(&b, a)
	want := "Status:      not ready yet (InProgress); kstatus, which reads only its conditions, would say Current\n"
	if !strings.Contains(b.String(), want) || !strings.Contains(b.String(), objstatus.ObjectWords(a.Verdict)) {
		t.Errorf("why printed:\n%s\nwant the line\n%s", b.String(), want)
	}
	if strings.Contains(b.String(), "kstatus alone") {
		t.Errorf("why says kstatus's word bare:\n%s", b.String())
	}
}
