package logs

import (
	"strings"
	"testing"
	"time"
)

// TestLineShapesOfBatch4 pins the shapes learnt from the training batch 4
// (testdata/batch4, verbatim lines; README there for their sources), and
// the cut that must not be read:
//   - a JSON record whose line ends inside a string value (a stored text
//     broken in a long error, a stack trace a viewer expanded): the
//     members before it are read, the cut error as far as it goes; a cut
//     in a field that names the key is not read (another key);
//   - klog text that opens with a quoted name, not klog structured
//     (library-go's `"NAME" controller failed to sync "KEY", err: ERR`):
//     the controller is NAME, the key the quoted KEY — but not its
//     synthetic item "key", no key since stop 62 (synthetic.go);
//   - klog's line with its header cut before the thread id, quoted in
//     prose (`"1 controller.go:135]  error syncing 'ns/x': …, requeuing"`);
//   - a message alone (no time, level or caller: an inline code span),
//     read only when it opens with the failure (or its controller's name
//     and the failure), then the key, then the error.
func TestLineShapesOfBatch4(t *testing.T) {
	cr312 := readTestdata(t, "testdata/batch4/312-namespace-config-operator-json-reconciler-error-request-slash-stored-break.log")
	cr312 = strings.TrimRight(cr312, "\n")
	cut := cr312[:strings.Index(cr312, `"request":"/networkpolicy-iso`)+len(`"request":"/networkpolicy-iso`)]
	lib302 := strings.TrimPrefix(strings.TrimSpace(readTestdata(t, "testdata/batch4/302-library-go-blockquote-klog-controller-failed-to-sync-key.log")), "> ")
	lib303 := strings.TrimSpace(readTestdata(t, "testdata/batch4/303-library-go-inline-message-only-controller-failed-to-sync.log"))
	for _, tt := range []struct {
		name, line                 string
		controller, key, errPrefix string // key "": not read
	}{
		{"JSON cut in its error", cr312, "namespace-config-operator", "networkpolicy-isolate-namespaces",
			`NamespaceConfig.redhatcop.redhat.io "networkpolicy-isolate-namespaces" is invalid: [status.lockedResourceStatuses`},
		{"JSON cut in its key", cut, "", "", ""},
		{"klog text opening with a quoted name", strings.Split(readTestdata(t, "testdata/batch6/116-ocm-librarygo-klog-controller-failed-to-sync.log"), "\n")[1],
			"CRDMigrationController", "cluster-manager", "unsupport install mode"},
		{"klog text opening with a quoted name, the synthetic item", lib302, "", "", ""},
		{"a message alone", strings.Replace(lib303, `"key"`, `"openshift-authentication/oauth-openshift"`, 1),
			"OAuthRouteCheckEndpointAccessibleController", "openshift-authentication/oauth-openshift", `Get "https://oauth-openshift.apps.prod..com/healthz": EOF`},
		{"a message alone, the synthetic item", lib303, "", "", ""},
		{"a message alone, not opening with the failure", `Waited for caches of ns/x to sync: failed to sync: timed out`, "", "", ""},
		{"a message alone, no error after its key", `failed to sync "ns/x"`, "", "", ""},
		// syndesisio/syndesis#3271 (operator-sdk 0.0.5, logrus text):
		// "key" and the bracket are no kind to name the controller by.
		{"a key in brackets after the word key", `time="2018-08-02T07:56:30Z" level=error msg="error syncing key (myproject/app): service account token not found"`,
			"unknown", "myproject/app", "service account token not found"},
		// sample-controller's message in logrus' text, which names no
		// logger and no file: read under "unknown", not dropped (issue
		// #42's first shape of misses).
		{"a dialect's line naming no controller", `time="2026-12-03T10:00:00Z" level=error msg="error syncing 'demo/web': quota exceeded, requeuing"`,
			"unknown", "demo/web", "quota exceeded"},
		// Its caller is lasso's controller.go; its error names the
		// handler, the controller's name (handlername.go).
		{"klog tail quoted in prose", strings.Split(readTestdata(t, "testdata/batch4/321-system-upgrade-controller-quoted-klog-tails-in-prose.log"), "\n")[2],
			"system-upgrade-controller", "system-upgrade/k3s-agent", "handler system-upgrade-controller: Get https://update.k3s.io/v1-release/channels/latest: dial tcp 10.0.0.1:443: connect: network is unreachable"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, ok := Parse([]byte(tt.line), time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
			if tt.key == "" {
				if ok {
					t.Fatalf("read as %s %s, want not read", r.Controller, r.Key())
				}
				return
			}
			if !ok {
				t.Fatalf("not read: %q", tt.line)
			}
			if r.Controller != tt.controller || r.Key() != tt.key || !strings.HasPrefix(r.Error, tt.errPrefix) || r.What != ErrorLine {
				t.Errorf("read as %s %s %q, want %s %s %q…", r.Controller, r.Key(), r.Error, tt.controller, tt.key, tt.errPrefix)
			}
		})
	}
}
