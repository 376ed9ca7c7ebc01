package cli

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/why"
)

// TestPrintWatchUpdate: `why -w` prints the first answer whole and the
// retry it waits for, then each later answer appended as a stamped line
// with its steps (as kubectl -w appends rows: no redraw, no escape
// sequence), and the end on Current.
func TestPrintWatchUpdate(t *testing.T) {
	at := time.Date(2026, 12, 6, 9, 0, 5, 0, time.UTC)
	a := &why.Answer{Object: why.Object{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "q", Name: "web", Key: "q/web"},
		Verdict: why.Verdict{Status: why.InProgress}, Summary: "InProgress: it waits for replicaset.apps/web-1", Next: []string{"Retry now: kubectl backoff kick --kind ReplicaSet.apps q/web-1"}, Now: at}
	var b bytes.Buffer
	printWatchUpdate(&b, why.Update{Answer: a, Cause: "first", RetryWait: "waits only for a retry: …"})
	first := b.String()
	if !strings.HasPrefix(first, "Object:      deployment.apps/web -n q\n") || !strings.HasSuffix(first, "\nWatching: it waits only for a retry: …; judged again then, or on a change.\n") {
		t.Errorf("first update:\n%s\nwant the whole answer, then what it waits for", first)
	}
	b.Reset()
	a.Summary = "InProgress: it waits for pod/web-1-x, which is InProgress: Pending"
	a.Next = nil
	printWatchUpdate(&b, why.Update{Answer: a, Cause: "changed"})
	if want := "09:00:05  changed  InProgress\n  InProgress: it waits for pod/web-1-x, which is InProgress: Pending\n"; b.String() != want {
		t.Errorf("later update:\n%q\nwant\n%q", b.String(), want)
	}
	b.Reset()
	a.Verdict.Status, a.Summary = why.Current, "Current: the latest change is reconciled, nothing to wait for."
	printWatchUpdate(&b, why.Update{Answer: a, Cause: "changed", Done: true})
	if !strings.HasSuffix(b.String(), "09:00:05  Current: done watching\n") || strings.Contains(b.String(), "\x1b") {
		t.Errorf("last update:\n%q\nwant the end said, no escape sequence", b.String())
	}
}
