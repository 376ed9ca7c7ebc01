package logs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// TestSuccessOfAKnownKey: sample-controller (controller.go:222, v0.36.4)
// and KubeRay's RayCluster reconciler (raycluster_controller.go:353,
// v1.5.0) log a success at their default level ("Successfully synced",
// "Unconditional requeue after": RequeueAfter with a nil error). A key the
// log showed failing and then succeeding is idle, not "unknown"
// (batch16/1612 web/landing, 1621 ml-serve/embeddings-serve; 1610's
// web/blog, read after); a key with no success logged stays unknown, even
// when it went quiet (1612's storefront/cart-frontend was deleted, not
// recovered); and those lines make no key of their own: a log of
// successes alone (1613, a negative) reads no key.
func TestSuccessOfAKnownKey(t *testing.T) {
	read := func(name string) map[string]api.Key {
		t.Helper()
		raw, err := os.ReadFile(filepath.Join("testdata/batch16", name))
		if err != nil {
			t.Fatal(err)
		}
		var said []LineReading
		_, keys := readKeyAfter(t, string(raw), &said).views("")
		m := map[string]api.Key{}
		for _, k := range keys {
			m[k.Key] = k
		}
		return m
	}
	for _, tt := range []struct {
		file  string
		key   string
		state api.State
		fails int
	}{
		{"1612-sample-controller-klog-owner-freed-recovery-conflict-deleted-foo.log", "web/landing", api.StateIdle, 0},
		{"1612-sample-controller-klog-owner-freed-recovery-conflict-deleted-foo.log", "storefront/cart-frontend", api.StateUnknown, 1},
		{"1612-sample-controller-klog-owner-freed-recovery-conflict-deleted-foo.log", "storefront/search-ui", api.StateBackoff, 2},
		{"1610-sample-controller-klog-deployment-create-denied-by-policy-not-managed-by-foo-conflict-burst.log", "web/blog", api.StateIdle, 0},
		{"1621-kuberay-zap-json-policy-denies-head-pod-other-cluster-recovers-unconditional-requeue.log", "ml-serve/embeddings-serve", api.StateIdle, 0},
		{"1621-kuberay-zap-json-policy-denies-head-pod-other-cluster-recovers-unconditional-requeue.log", "ml-train/llm-finetune", api.StateBackoff, 6},
	} {
		k, ok := read(tt.file)[tt.key]
		if !ok || k.State != tt.state || k.Failures != tt.fails {
			t.Errorf("%s %s: %s, %d failures (read %v); want %s, %d", tt.file[:4], tt.key, k.State, k.Failures, ok, tt.state, tt.fails)
		}
	}
	if keys := read("1613-negative-sample-controller-klog-no-longer-exists-deployment-name-missing-successfully-synced.log"); len(keys) != 0 {
		t.Errorf("1613, successes alone: %d keys, want none: %v", len(keys), keys)
	}
}

// TestKnownKeysOnASuccessLineOnly: known-keys settles a key; on a failure
// line it would make a failure of nothing, and a dialect file saying so
// is refused, naming the field.
func TestKnownKeysOnASuccessLineOnly(t *testing.T) {
	path := filepath.Join(t.TempDir(), "d.yaml")
	body := "dialects:\n- name: mine\n  lines:\n  - {text: \"sync failed\", means: failure, known-keys: true}\n"
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadDialects(path); err == nil || !strings.Contains(err.Error(), "known-keys") {
		t.Errorf("LoadDialects = %v, want known-keys refused on a failure line", err)
	}
	if err := os.WriteFile(path, []byte(strings.Replace(body, "means: failure", "means: success", 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	if ds, err := LoadDialects(path); err != nil || len(ds) != 1 || !ds[0].Lines[0].KnownKeys {
		t.Errorf("LoadDialects = %+v, %v; want one dialect whose line has KnownKeys", ds, err)
	}
}
