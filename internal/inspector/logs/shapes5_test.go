package logs

import (
	"strings"
	"testing"
)

// TestLineShapesOfBatch5 pins the shapes learnt from the training batch 5
// (testdata/batch5, verbatim lines; README there for their sources), and
// their near misses that must not be read:
//   - zap console whose tab before the JSON fields became spaces (a
//     paste): the fields are read, the message ends before them; a brace
//     in a message that is not whole JSON members leaves it as it is;
//   - a namespace field that is the failing object's own key: the message
//     names the kind namespace where it says what failed (apisix's
//     namespace controller), never a namespace field beside another kind;
//   - Python's logging as kopf writes it: [time] logger [LEVEL   ]
//     [namespace/name] message, "None/x" a cluster-scoped x, the error
//     what follows the bracketed key; a debug line, and a word that merely
//     opens with "None", are no failure and no key;
//   - client-go's maxRetries branch at info level, "Error syncing KIND
//     NAME (retry: N/M): ERR": the kind and bare name a cluster-scoped key,
//     the count with its budget the evidence (N+1 failures); not a bare
//     word for a name, not a count past its budget, not a count beside
//     other words (a poll's "waiting … (retry 3/15)").
func TestLineShapesOfBatch5(t *testing.T) {
	apisix := strings.Split(readTestdata(t, "testdata/batch5/501-apisix-ingress-zapconsole-warn-will-retry-key-in-namespace-field.log"), "\n")
	kopf := strings.Split(readTestdata(t, "testdata/batch5/504-clustersecret-kopf-error-tag-handler-failed-will-retry-cluster-scoped.log"), "\n")
	for _, tt := range []struct {
		name, line                 string
		controller, key, errPrefix string // key "": not read
	}{
		{"zap console, spaces for its tab, key in the namespace field", apisix[1], "ingress/namespace", "kube-public", "context canceled"},
		{"zap console, spaces for its tab, key in the message", `2022-06-28T16:16:52+08:00       warn    ingress/route.go:121        sync route failed, will retry  {"route": "ns/r1", "error": "context canceled"}`,
			"ingress/route", "ns/r1", "context canceled"},
		// Another kind's failure: the namespace field is where the object
		// lives, not the object.
		{"a namespace field beside another kind", `2022-06-28T16:16:52+08:00       warn    ingress/secret.go:121        sync secret failed, will retry  {"namespace": "kube-public", "error": "context canceled"}`,
			"", "", ""},
		{"kopf, a cluster-scoped object", kopf[2], "kopf.objects", "clustersecret3", "Handler 'namespace_watcher' failed with an exception. Will retry."},
		{"kopf, a namespaced object", `[2020-09-04 08:16:44,581] kopf.objects         [ERROR   ] [ns1/app] Handler 'create_fn' failed with an exception. Will retry.`,
			"kopf.objects", "ns1/app", "Handler 'create_fn' failed with an exception. Will retry."},
		{"kopf, a debug line", kopf[0], "", "", ""},
		{"a word opening with None is not Python's None", `[2020-09-04 08:16:44,581] op         [ERROR   ] Nonexistent/x failed to sync, will retry`, "", "", ""},
		{"maxRetries branch at info level", strings.Split(readTestdata(t, "testdata/batch5/505-service-catalog-klog-info-error-syncing-cluster-scoped-unquoted-retry-count.log"), "\n")[1],
			"controller", "nasty-broker", "Get http://nasty-service.default.svc.cluster.local/v2/catalog: dial tcp"},
		{"a word, not a name, after the kind", `I0911 07:11:21.915665       1 controller.go:386] Error syncing Pod sandbox (retry: 0/15): boom`, "", "", ""},
		{"a count past its budget", `I0911 07:11:21.915665       1 controller.go:386] Error syncing ClusterServiceBroker nasty-broker (retry: 15/15): boom`, "", "", ""},
		{"a poll's count", `I0911 07:11:21.915665       1 controller.go:386] Waiting for ClusterServiceBroker nasty-broker (retry: 3/15): not ready`, "", "", ""},
		{"a brace in the message, not JSON fields", `2022-06-28T16:16:52+08:00       warn    x/y.go:1        sync namespace failed, will retry  {not json}`, "", "", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			wantLineRead(t, tt.line, tt.controller, tt.key, tt.errPrefix)
		})
	}
}
