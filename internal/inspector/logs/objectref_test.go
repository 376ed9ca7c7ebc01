package logs

import (
	"os"
	"strings"
	"testing"
)

// TestObjectRefFailure reads kube-rs's ReconcilerFailed on the real lines
// of stackable-operator (batch24/2401: a Pod of the core group, its
// controller in controller.name), and reads no key from kube-rs's other
// errors: a watch's QueueError (batch24/2407's first physical line), an
// ObjectNotFound (batch11/1100: nothing ran), the reconcile span's info
// lines (batch24/2413).
func TestObjectRefFailure(t *testing.T) {
	raw, err := os.ReadFile("testdata/batch24/2401-stackable-commons-operator-rust-tracing-failed-to-reconcile-object-pod-core-group.log")
	if err != nil {
		t.Fatal(err)
	}
	r, ok := Parse([]byte(strings.TrimSpace(string(raw))), corpusClock)
	if !ok || r.What != ErrorLine || r.Key() != "default/trino-worker-default-0" || r.Controller != "pod.restarter.commons.stackable.tech" ||
		r.Error != "reconciler for object Pod.v1./trino-worker-default-0.default failed" {
		t.Errorf("2401: ok %v, what %v, %s %s, error %q; want a failure of pod.restarter.commons.stackable.tech default/trino-worker-default-0, its error the clause", ok, r.What, r.Controller, r.Key(), r.Error)
	}
	for _, f := range []string{
		"testdata/batch24/2407-negative-stackable-secret-operator-rust-tracing-failed-to-reconcile-object-event-queue-error.log",
		"testdata/batch11/1100-negative-kube-rs-tracing-json-object-not-found-in-local-store.log",
		"testdata/batch24/2413-negative-stackable-kafka-operator-journald-rust-tracing-info-reconciling-object-spans.log",
	} {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, l := range strings.Split(string(raw), "\n") {
			if r, ok := Parse([]byte(l), corpusClock); ok && r.What == ErrorLine {
				t.Errorf("%s:%d: read a failure of %s", f, i+1, r.Key())
			}
		}
	}
}

// TestObjectRefKey splits kube-rs's ObjectRef (KIND.VERSION.GROUP/NAME
// and .NAMESPACE when namespaced, kube-runtime's reflector/object_ref.rs)
// at the namespace's dot: a name may hold dots, a namespace none; a
// built-in cluster-scoped kind has no namespace to split off.
func TestObjectRefKey(t *testing.T) {
	for _, tt := range []struct{ msg, key string }{
		// batch24/2400's reference, put back on one line.
		{"error=reconciler for object ZookeeperZnode.v1alpha1.zookeeper.stackable.tech/simple-znode.default failed error.sources=[x]", "default/simple-znode"},
		{"reconciler for object Pod.v1./web.v2.shop failed: boom", "shop/web.v2"},
		{"reconciler for object Node.v1./ip-10-0-0-1.ec2.internal failed: boom", "ip-10-0-0-1.ec2.internal"},
		{"reconciler for object ClusterIssuer.v1.cert-manager.io/letsencrypt failed", "letsencrypt"},
		{"reconciler for object Widget.v1.example.com/single failed", "single"},
	} {
		var f fields
		var r Record
		if !f.objectRefKey(tt.msg, &r) || r.Key() != tt.key {
			t.Errorf("%q: key %q, want %q", tt.msg, r.Key(), tt.key)
		}
	}
	var f fields
	var r Record
	if f.objectRefKey("tried to reconcile object Build.v1alpha1.fl0.dev/build.fl0-build that was not found in local store", &r) {
		t.Errorf("ObjectNotFound read as a failure of %s", r.Key())
	}
}
