package view

import (
	"strings"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/describe"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/objstatus"
)

// A ConfigMap has no generation: the key view's object lines say so, not
// "generation 0", as describe and why do.
func TestDetailObjectWithoutGeneration(t *testing.T) {
	now := time.Date(2026, 12, 6, 20, 0, 0, 0, time.UTC)
	obj := &objstatus.Object{Kind: "ConfigMap", Namespace: "demo", Name: "naive-00001",
		Verdict: objstatus.Verdict{Status: objstatus.Current, KStatus: objstatus.Current, KindNoStatus: true}}
	d := &Detail{C: &Common{Width: 120}, Data: &describe.Description{Object: obj}}
	got := strings.Join(append(d.verdict(now), d.object(now)...), "\n")
	if strings.Contains(got, "generation 0") || !strings.Contains(got, "no generation") {
		t.Errorf("object lines of a ConfigMap:\n%s\nwant no generation 0, and that it has none", got)
	}
}
