package inspector

import (
	"testing"
	"time"

	"k8s.io/client-go/kubernetes/fake"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/cluster/clustertest"
)

// TestAttachClusterWideOnePod: -A that finds one instrumented pod still
// names it on every key (get -A's NAMESPACE and POD, -o json's
// items[*].pod, top -A's NAMESPACE/POD), by a list, a list of pages, one
// key, and a watch. Seen on a cluster with one controller: "-  -".
func TestAttachClusterWideOnePod(t *testing.T) {
	widgets := newFleetEndpoint(t, "widget", "ops/w1", "ops/w2")
	pf := clustertest.NewPortForwardServer(t, widgets, testPodPort, "ops/ctrl-5d8f-a")
	pod := fleetPod("ops", "ctrl-5d8f-a", "ReplicaSet", "ctrl-5d8f")
	pod.Labels = map[string]string{"pod-template-hash": "5d8f"}
	cfg := AttachConfig{REST: pf.Config(), Clientset: fake.NewClientset(pod), AllNamespaces: true,
		Tunnel: TunnelOptions{Backoff: 10 * time.Millisecond, Max: 20 * time.Millisecond}}
	ctx := pfCtx(t)
	s, err := Attach(ctx, cfg)
	if err != nil {
		t.Fatalf("Attach -A: %v", err)
	}
	defer s.Close()
	const want = "ops/ctrl-5d8f-a"
	check := func(how string, l *KeyList, err error) {
		t.Helper()
		if err != nil || len(l.Items) != 2 {
			t.Fatalf("%s: %d keys, %v; want 2", how, len(l.Items), err)
		}
		for _, k := range l.Items {
			if k.Pod != want {
				t.Errorf("%s: key %s has pod %q, want %q", how, k.Key.Key, k.Pod, want)
			}
		}
	}
	l, err := s.Keys(ctx, KeyQuery{Sort: api.SortKey})
	check("Keys", l, err)
	l, err = s.AllKeys(ctx, KeyQuery{Sort: api.SortKey}, 1)
	check("AllKeys", l, err)
	if d, err := s.Key(ctx, "widget", "ops/w1"); err != nil || d.Pod != want {
		t.Errorf("Key = pod %q, %v; want %q", d.Pod, err, want)
	}

	// top reads through a watch once the overview has seen it offered.
	s.Watch(ctx)
	if _, err := s.Overview(ctx); err != nil {
		t.Fatal(err)
	}
	var watched bool
	pfEventually(t, "a page from the watch", func() bool {
		l, watched = s.watchedKeys(ctx, KeyQuery{Sort: api.SortKey, Limit: 10})
		return watched && len(l.Items) == 2
	})
	check("watched Keys", l, nil)
}
