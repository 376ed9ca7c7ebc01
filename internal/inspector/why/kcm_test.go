package why

import (
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// TestKCMName: a kube-controller-manager log names the ReplicaSet and the
// ReplicationController controllers alike after replica_set.go; the kind
// tells them apart. Another manager's log keeps its own names.
func TestKCMName(t *testing.T) {
	kcm := Ownership{StatusManagers: []Change{{Manager: kcmManager}}}
	for _, tc := range []struct {
		name, want string
		own        Ownership
		rc         bool
	}{
		{name: "replicaset", own: kcm, want: "replicaset-controller"},
		{name: "replicationcontroller", own: kcm, rc: true, want: "replicationcontroller-controller"},
		{name: "not kube-controller-manager's object", own: Ownership{StatusManagers: []Change{{Manager: "my-operator"}}}, want: "replica_set"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := &Backoff{Source: SourceLogs, Controller: "replica_set", Key: &api.Key{Controller: "replica_set"}}
			gk := gkReplicaSet
			if tc.rc {
				gk = gkRC
			}
			kcmName(b, gk, tc.own)
			if b.Controller != tc.want || b.Key.Controller != tc.want {
				t.Errorf("controller %q (key's %q); want %q", b.Controller, b.Key.Controller, tc.want)
			}
		})
	}
}

// TestKCMDelay: client-go's DefaultTypedControllerRateLimiter per item,
// 5ms·2^(n-1) up to 1000s.
func TestKCMDelay(t *testing.T) {
	rs := kcmControllers[gkReplicaSet]
	for n, want := range map[int]time.Duration{1: 5 * time.Millisecond, 14: 40960 * time.Millisecond, 18: 655360 * time.Millisecond, 30: 1000 * time.Second} {
		if got := rs.delayAfter(n); got != want {
			t.Errorf("after %d failures: %v; want %v", n, got, want)
		}
	}
}

// TestNotFailingRoot: a Deployment under a quota is not what fails, its
// ReplicaSet is; the Deployment's key, absent from kube-controller-
// manager's log, is said so in those words (it said "no reconcile line for
// q/web", as if a line were missing), the log's own words kept as the note. Without a failing blocker
// the log's words stand.
func TestNotFailingRoot(t *testing.T) {
	const logWords = "the log of pod/kube-controller-manager-cp-1 (the last 1h0m0s) has no failure for q/web: at the default verbosity only failures are logged, so it has not failed on it"
	root := func() *Answer {
		return &Answer{Object: Object{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "q", Name: "web", Key: "q/web"},
			Ownership: Ownership{StatusManagers: []Change{{Manager: "kube-controller-manager"}}},
			Backoff:   &Backoff{Source: SourceLogs, NotTracked: logWords}}
	}
	a := root()
	a.Blockers = []*Answer{{Object: Object{APIVersion: "apps/v1", Kind: "ReplicaSet", Namespace: "q", Name: "web-1", Key: "q/web-1"},
		Backoff: &Backoff{Source: SourceLogs, Controller: "replicaset-controller", Key: &api.Key{Key: "q/web-1", State: api.StateBackoff}}}}
	notFailing(a)
	if want := "q/web: the deployment-controller is not failing on it; what fails is replicaset.apps/web-1, where the replicaset-controller is failing on q/web-1 (its answer is below)"; a.Backoff.NotTracked != want {
		t.Errorf("not tracked\n%s\nwant\n%s", a.Backoff.NotTracked, want)
	}
	if a.Backoff.Note != logWords {
		t.Errorf("note %q; want the log's words", a.Backoff.Note)
	}
	// A blocker that is not failing (a pod not ready) is not what fails.
	a = root()
	a.Blockers = []*Answer{{Object: Object{APIVersion: "v1", Kind: "Pod", Namespace: "q", Name: "web-1-x", Key: "q/web-1-x"}}}
	notFailing(a)
	if a.Backoff.NotTracked != logWords || a.Backoff.Note != "" {
		t.Errorf("without a failing blocker: not tracked %q, note %q; want the log's words alone", a.Backoff.NotTracked, a.Backoff.Note)
	}
}
