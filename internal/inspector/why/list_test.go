package why

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/objstatus"
)

// TestList: a Current object is judged and left out without a search for
// its controller; the others are answered, the longest-waiting change
// first, each with its backoff in brief.
func TestList(t *testing.T) {
	ready := load(t, "flux-kustomization-ready.yaml") // Ready=True at its generation: Current
	recent := load(t, "certmanager-certificate-issuing.yaml")
	managedBy(recent, "kubectl-client-side-apply", now.Add(-12*time.Minute), "cert-manager-certificates-issuing")
	older := load(t, "certmanager-certificate-issuing.yaml")
	older.SetName("older-tls")
	managedBy(older, "helm", now.Add(-30*time.Minute), "cert-manager-certificates-issuing")

	keys := &fakeKeys{log: &Backoff{Source: SourceLogs, Controller: "certificates-issuing", ServerTime: now, Key: &api.Key{
		Controller: "certificates-issuing", Key: "default/x", State: api.StateBackoff, Failures: 3,
		NextRetryAt: now.Add(40 * time.Second), Source: api.SourceLogs, Estimated: true,
	}}}
	a := &Asker{Finder: &Finder{Core: certManager()}, Keys: keys, Now: func() time.Time { return now }}
	l := a.List(context.Background(), []Item{{Object: recent, Resource: "certificates"}, {Object: ready}, {Object: older, Resource: "certificates"}})

	if l.Total != 3 {
		t.Errorf("Total = %d, want the 3 objects read", l.Total)
	}
	var names []string
	for _, ans := range l.Answers {
		names = append(names, ans.Object.Name)
	}
	if want := []string{"older-tls", recent.GetName()}; !slices.Equal(names, want) {
		t.Errorf("answers %v, want %v (30m waiting, then 12m; the Current Kustomization left out)", names, want)
	}
	if len(keys.asked) != 2 {
		t.Errorf("keys asked %v, want one read per object not Current", keys.asked)
	}
	if len(l.Answers) > 0 {
		ans := l.Answers[0]
		if got, want := ans.BackoffBrief(), "backoff 3×, retry 40s (estimated)"; got != want {
			t.Errorf("BackoffBrief = %q, want %q", got, want)
		}
		// Found by its Deployment, not instrumented: no controller name, so the status manager.
		if got, want := ans.ControllerName(), "cert-manager-certificates-issuing"; got != want {
			t.Errorf("ControllerName = %q, want %q", got, want)
		}
	}
}

// TestBackoffBriefRunning: a running key says how long it has run, not a
// "retry" in that time: nothing is scheduled while it runs.
func TestBackoffBriefRunning(t *testing.T) {
	now := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		key  api.Key
		want string
	}{
		{api.Key{State: api.StateRunning, StartedAt: now.Add(-2 * time.Second)}, "running for 2s (exact)"},
		{api.Key{State: api.StateBackoff, Failures: 3, NextRetryAt: now.Add(12 * time.Second)}, "backoff 3×, retry 12s (exact)"},
	} {
		a := &Answer{Backoff: &Backoff{Source: SourceEndpoint, Key: &tt.key, ServerTime: now}}
		if got := a.BackoffBrief(); got != tt.want {
			t.Errorf("BackoffBrief(%s) = %q, want %q", tt.key.State, got, tt.want)
		}
	}
}

// TestListBlockerLine: a list walks its answers' chains, so each says what
// blocks it: the quota-refused ReplicaSet under the documentation's
// Deployment; the Deployment past its deadline, by its two pods.
func TestListBlockerLine(t *testing.T) {
	quota := load(t, "deployment-replicafailure.yaml")
	quota.SetUID("4c0f7b3e-2f0a-4f4e-8e5e-000000000001")
	deadline := load(t, "deployment-progressdeadline.yaml")
	g := graphOf(t, "deployment-replicafailure.yaml", "chain/replicaset-quota.yaml",
		"deployment-progressdeadline.yaml", "chain/replicaset-notready.yaml", "chain/pod-notready-qk7q5.yaml", "chain/pod-notready-v5hq5.yaml")
	a := &Asker{Graph: g, Now: func() time.Time { return now }}
	l := a.List(context.Background(), []Item{{Object: quota, Resource: "deployments"}, {Object: deadline, Resource: "deployments"}})
	want := map[string]string{
		"nginx-deployment": `replicaset.apps/nginx-deployment-4262182780: ReplicaFailure=True (FailedCreate): pods "nginx-deployment-4262182780-" is forbidden: exceeded quota: object-counts, requested: pods=1, used: pods=3, limited: pods=2`,
		"web":              "pod/web-5f9c9d5cf8-qk7q5: Running, not ready (ContainersNotReady: containers with unready status: [web]) (and 1 more)",
	}
	if len(l.Answers) != 2 {
		t.Fatalf("%d answers, want 2", len(l.Answers))
	}
	for _, ans := range l.Answers {
		if got := ans.BlockerLine(); got != want[ans.Object.Name] {
			t.Errorf("%s: BlockerLine\n %s\nwant\n %s", ans.Object.Name, got, want[ans.Object.Name])
		}
	}
	// Without a graph, or for an object that is its own blocker: nothing.
	if got := (&Answer{}).BlockerLine(); got != "" {
		t.Errorf("BlockerLine without a chain = %q", got)
	}
}

// TestListEventsSkippedSaid: over maxListEvents objects, the Events of
// those kstatus calls Current are not read (one read each), and the list
// says so with how to narrow it; at the bound they are read, and nothing
// is said. It was skipped silently.
func TestListEventsSkippedSaid(t *testing.T) {
	for _, n := range []int{maxListEvents, maxListEvents + 1} {
		reads := 0
		a := &Asker{Now: func() time.Time { return now }, Events: func(context.Context, *unstructured.Unstructured) ([]objstatus.Event, error) {
			reads++
			return nil, nil
		}}
		items := make([]Item, n)
		for i := range items {
			u := load(t, "flux-kustomization-ready.yaml")
			u.SetUID(types.UID(fmt.Sprint(i))) // Events are kept by UID
			items[i] = Item{Object: u}
		}
		l := a.List(context.Background(), items)
		switch {
		case n <= maxListEvents && (l.EventsSkipped != "" || reads != n):
			t.Errorf("%d objects: %d reads, note %q; want each one's Events read, nothing said", n, reads, l.EventsSkipped)
		case n > maxListEvents && (reads != 0 || !strings.Contains(l.EventsSkipped, "were not read (101 objects, over 100)") ||
			!strings.Contains(l.EventsSkipped, "a name, a label selector, or one namespace")):
			t.Errorf("%d objects: %d reads, note %q; want none read, said so with how to narrow", n, reads, l.EventsSkipped)
		}
	}
}
