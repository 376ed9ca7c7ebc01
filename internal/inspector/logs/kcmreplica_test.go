package logs

import (
	"context"
	"strings"
	"testing"
	"time"

	clocktesting "k8s.io/utils/clock/testing"
)

// TestReplicaSetOrReplicationController: replica_set.go's failure line
// names neither of the two controllers that run it; the log's other lines
// do (kcmreplica.go). Lines as kube-controller-manager v1.37's
// replica_set.go writes them (its Info calls at lines 285, 693 and 759);
// the failure line is the e2e tier's real one.
func TestReplicaSetOrReplicationController(t *testing.T) {
	const (
		startRS   = `I1203 12:44:18.948762   23702 replica_set.go:285] "Starting controller" name="replicaset"`
		startRC   = `I1203 12:44:18.948790   23702 replica_set.go:285] "Starting controller" name="replicationcontroller"`
		failWeb   = `E1203 12:44:19.239867   23702 replica_set.go:640] "Unhandled Error" err="sync \"q/web-7655778b6f\" failed with pods \"web-7655778b6f-ff74r\" is forbidden: exceeded quota: q, requested: pods=1, used: pods=0, limited: pods=0" logger="UnhandledError"`
		failRC    = `E1203 12:44:19.339867   23702 replica_set.go:640] "Unhandled Error" err="sync \"q/nginx\" failed with pods \"nginx-x2x4z\" is forbidden: exceeded quota: q, requested: pods=1, used: pods=0, limited: pods=0" logger="UnhandledError"`
		slowRC    = `I1203 12:44:19.339860   23702 replica_set.go:693] "Slow-start failure. Skipping creation of pods, decrementing expectations" podsSkipped=0 kind="ReplicationController" replicaSet="q/nginx"`
		finishWeb = `I1203 12:44:19.239900   23702 replica_set.go:759] "Finished syncing" logger="replicaset-controller" kind="ReplicaSet" key="q/web-7655778b6f" duration="1.2ms"`
	)
	for _, tt := range []struct {
		name  string
		lines []string
		want  map[string]string // key: controller
		// live is what a live log reads where it differs: a key's own
		// lines are not used (they follow its failures as often).
		live map[string]string
	}{
		{"only the replicaset controller started", []string{startRS, failWeb, failRC},
			map[string]string{"q/web-7655778b6f": "replicaset-controller", "q/nginx": "replicaset-controller"}, nil},
		{"both started, each key named by its kind", []string{startRS, startRC, failWeb, slowRC, failRC, finishWeb},
			map[string]string{"q/web-7655778b6f": "replicaset-controller", "q/nginx": "replicationcontroller-controller"},
			map[string]string{"q/web-7655778b6f": kcmAmbiguous, "q/nginx": kcmAmbiguous}},
		{"both started, nothing names the key", []string{startRS, startRC, failWeb},
			map[string]string{"q/web-7655778b6f": kcmAmbiguous}, nil},
		{"no line but the failure", []string{failWeb},
			map[string]string{"q/web-7655778b6f": kcmAmbiguous}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for _, live := range []bool{false, true} {
				s := NewStore(Options{Live: live, Clock: clocktesting.NewFakePassiveClock(time.Date(2026, 12, 3, 13, 0, 0, 0, time.UTC))})
				if _, _, err := s.Read(context.Background(), strings.NewReader(strings.Join(tt.lines, "\n")+"\n")); err != nil {
					t.Fatal(err)
				}
				_, keys := s.views("")
				got := map[string]string{}
				for _, k := range keys {
					got[k.Key] = k.Controller
				}
				want := tt.want
				if live && tt.live != nil {
					want = tt.live
				}
				for key, want := range want {
					if got[key] != want {
						t.Errorf("live %v: %s read under %q, want %q", live, key, got[key], want)
					}
				}
			}
		})
	}
}
