package kick

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	dynamicfake "k8s.io/client-go/dynamic/fake"
)

// kcmSource is k8s.io/kubernetes v1.37.2's source in the module cache,
// where the table was read; "" when it is not there.
func kcmSource(t *testing.T) string {
	t.Helper()
	cache := os.Getenv("GOMODCACHE")
	if cache == "" {
		out, err := exec.Command("go", "env", "GOMODCACHE").Output()
		if err != nil {
			return ""
		}
		cache = strings.TrimSpace(string(out))
	}
	dir := filepath.Join(cache, "k8s.io", "kubernetes@v1.37.2")
	if _, err := os.Stat(dir); err != nil {
		return ""
	}
	return dir
}

// TestKCMQueuesAgainstSource: each entry's evidence, the line of its
// update handler the entry was read from, is in its source file. Run
// where k8s.io/kubernetes v1.37.2 is in the module cache (go mod download
// k8s.io/kubernetes@v1.37.2); skipped elsewhere.
func TestKCMQueuesAgainstSource(t *testing.T) {
	dir := kcmSource(t)
	if dir == "" {
		// go test ./... may run before anything fetched the source; .ci/run
		// runs this test again after the e2e step's download, where a
		// missing source is a failure, not a skip.
		if os.Getenv("KCM_SOURCE_REQUIRED") != "" {
			t.Fatal("k8s.io/kubernetes@v1.37.2 is not in the module cache: go mod download k8s.io/kubernetes@v1.37.2")
		}
		t.Skip("k8s.io/kubernetes@v1.37.2 is not in the module cache")
	}
	for name, q := range kcmQueues {
		src, err := os.ReadFile(filepath.Join(dir, q.Source))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if !strings.Contains(string(src), q.Evidence) {
			t.Errorf("%s: %s has no %q", name, q.Source, q.Evidence)
		}
	}
	// The names are kube-controller-manager's own (plus the log reader's
	// name for replica_set.go's lines, which serve two of them).
	names, err := os.ReadFile(filepath.Join(dir, "cmd/kube-controller-manager/names/controller_names.go"))
	if err != nil {
		t.Fatal(err)
	}
	for name := range kcmQueues {
		if name != "replicaset or replicationcontroller" && !strings.Contains(string(names), `"`+name+`"`) {
			t.Errorf("%s is not among cmd/kube-controller-manager/names", name)
		}
	}
}

func typed(apiVersion, kind, ns, name string) *unstructured.Unstructured {
	u := &unstructured.Unstructured{}
	u.SetAPIVersion(apiVersion)
	u.SetKind(kind)
	u.SetNamespace(ns)
	u.SetName(name)
	return u
}

// TestResolve: replica_set.go's key names a ReplicaSet or a
// ReplicationController; the cluster says which exists. The binder's
// claim and volume keys differ in shape, which alone tells them apart.
func TestResolve(t *testing.T) {
	rs := schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "replicasets"}
	rc := schema.GroupVersionResource{Version: "v1", Resource: "replicationcontrollers"}
	pvc := schema.GroupVersionResource{Version: "v1", Resource: "persistentvolumeclaims"}
	pv := schema.GroupVersionResource{Version: "v1", Resource: "persistentvolumes"}
	dyn := dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(),
		map[schema.GroupVersionResource]string{rs: "ReplicaSetList", rc: "ReplicationControllerList", pvc: "PersistentVolumeClaimList", pv: "PersistentVolumeList"},
		typed("apps/v1", "ReplicaSet", "q", "web-7655778b6f"),
		typed("v1", "ReplicationController", "legacy", "frontend"),
		typed("apps/v1", "ReplicaSet", "both", "twin"), typed("v1", "ReplicationController", "both", "twin"))
	mapper := meta.NewDefaultRESTMapper([]schema.GroupVersion{rs.GroupVersion(), rc.GroupVersion()})
	mapper.Add(rs.GroupVersion().WithKind("ReplicaSet"), meta.RESTScopeNamespace)
	mapper.Add(rc.GroupVersion().WithKind("ReplicationController"), meta.RESTScopeNamespace)
	mapper.Add(pvc.GroupVersion().WithKind("PersistentVolumeClaim"), meta.RESTScopeNamespace)
	mapper.Add(pv.GroupVersion().WithKind("PersistentVolume"), meta.RESTScopeRoot)
	k := &Kicker{Mapper: mapper, Dynamic: dyn}
	rsCode, _, _ := KCMKinds("replicaset or replicationcontroller")
	binder, _, _ := KCMKinds("persistentvolume-binder-controller")
	for _, tc := range []struct {
		kinds []schema.GroupKind
		key   string
		want  []schema.GroupKind
	}{
		{rsCode, "q/web-7655778b6f", []schema.GroupKind{gkReplicaSet}},
		{rsCode, "legacy/frontend", []schema.GroupKind{gkRC}},
		{rsCode, "both/twin", []schema.GroupKind{gkReplicaSet, gkRC}},
		{rsCode, "q/gone", nil},
		{binder, "team/data", []schema.GroupKind{gkClaim}},
		{binder, "pvc-0b5f", []schema.GroupKind{gkVolume}},
	} {
		got, err := k.Resolve(context.Background(), tc.kinds, tc.key)
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("Resolve(%v, %s) = %v, %v; want %v", tc.kinds, tc.key, got, err, tc.want)
		}
	}
}
