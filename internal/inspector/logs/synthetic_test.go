package logs

import (
	"strings"
	"testing"
)

// TestSyntheticItemsAreNoKeys: a queue's synthetic item names no object and
// is not read as a key (synthetic.go, docs/log-mode.md "Synthetic items"),
// on verbatim lines of the four programs that queue one — library-go's
// factory (batch 4's 302, https://github.com/openshift/library-go/pull/808),
// the apiserver library's CA controller (../wild,
// https://github.com/antrea-io/antrea/issues/3167), ingress-nginx (../wild,
// https://github.com/kubernetes/ingress-nginx/issues/3443) and ingress-gce's
// firewall queue (batch 19's 1903,
// https://github.com/kubernetes/ingress-gce/issues/1074, whose other queue's
// namespace/name is read) — while library-go's line naming an object's
// name (batch 6's 116, https://github.com/open-cluster-management-io/ocm/issues/29)
// and a name that only starts with "key" are still read.
func TestSyntheticItemsAreNoKeys(t *testing.T) {
	factory := strings.TrimPrefix(strings.TrimSpace(readTestdata(t, "testdata/batch4/302-library-go-blockquote-klog-controller-failed-to-sync-key.log")), "> ")
	ocm := readTestdata(t, "testdata/batch6/116-ocm-librarygo-klog-controller-failed-to-sync.log")
	gce := readTestdata(t, "testdata/batch19/1903-ingress-gce-klog-taskqueue-requeuing-literal-queue-key-and-ns-name-then-skipping-nodes.log")
	for _, tt := range []struct {
		name, log                  string
		controller, key, errPrefix string // key "": no key read
	}{
		{"library-go's factory item", factory, "", "", ""},
		{"the apiserver library's CA item", readTestdata(t, "testdata/wild/antrea-3167.log"), "", "", ""},
		{"ingress-nginx's initial-sync", readTestdata(t, "testdata/wild/ingress-nginx-3443.log"), "", "", ""},
		{"ingress-gce: queueKey not read, the Ingress read", gce, "ingresses", "foobar/kuard", "waiting for stores to sync"},
		{"library-go naming an object", ocm, "CRDMigrationController", "cluster-manager", "unsupport install mode"},
		{"a name that only starts with key", strings.Replace(factory, `"key"`, `"key-manager"`, 1), "TargetConfigController", "key-manager", "synthetic requeue request"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			wantOneKey(t, tt.log, oneKeyCase{controller: tt.controller, key: tt.key, errPrefix: tt.errPrefix, failures: 1})
		})
	}
	// The line still looked like a failure: --explain-lines says why.
	r, ok := Parse([]byte(factory), corpusClock)
	if ok && r.What == ErrorLine {
		t.Fatalf("read as %s %s, want not read", r.Controller, r.Key())
	}
	if r.NotRead != syntheticItemWhy {
		t.Errorf("not read because %q, want %q", r.NotRead, syntheticItemWhy)
	}
}
