package cli

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"k8s.io/cli-runtime/pkg/genericiooptions"
)

// TestKickKeyNotInLog: kick --from-logs for a key the log never names says
// so, with some keys it does name and how to list them, before asking the
// cluster anything: with --controller, and on a log of one controller (where
// the key's controller is not looked up among several).
func TestKickKeyNotInLog(t *testing.T) {
	raw, err := os.ReadFile(kcmLog)
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	for _, l := range strings.SplitAfter(string(raw), "\n") {
		if strings.Contains(l, "replica_set.go") {
			kept = append(kept, l)
		}
	}
	one := filepath.Join(t.TempDir(), "kcm-replicaset.log")
	if err := os.WriteFile(one, []byte(strings.Join(kept, "")), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"--controller", []string{"--from-logs", kcmLog, "--controller", "replicaset-controller", "q/nothere"}},
		{"one controller", []string{"--from-logs", one, "q/nothere"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("HOME", t.TempDir()) // kubectl's discovery cache
			var asked atomic.Int32
			ks := &kcmServer{objects: map[string]bool{}}
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				asked.Add(1)
				ks.ServeHTTP(w, r)
			}))
			defer srv.Close()
			streams, _, _, _ := genericiooptions.NewTestIOStreams()
			cmd := NewKickCommand(serverFlags(t, srv.URL), streams)
			cmd.SetArgs(tc.args)
			cmd.SilenceErrors, cmd.SilenceUsage = true, true
			err := cmd.Execute()
			want := `key "q/nothere" is not in the log: no line of controller replicaset-controller names it (its keys: demo/demo-7d9f8b6c5d, demo/kubectl-backoff-demo-7dcddd6d9, q/web-7655778b6f)`
			if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "kubectl backoff get --from-logs LOG") {
				t.Fatalf("kick %v: error %v; want %q and how to list the log's keys", tc.args, err, want)
			}
			if n := asked.Load(); n != 0 {
				t.Errorf("the cluster was asked %d times before the key was found missing from the log", n)
			}
		})
	}
}
