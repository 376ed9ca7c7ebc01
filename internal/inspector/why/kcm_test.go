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
