package logs

import (
	"strings"
	"testing"
)

// firstLineWith is the first line of log holding sub.
func firstLineWith(t *testing.T, log, sub string) string {
	t.Helper()
	for l := range strings.SplitSeq(log, "\n") {
		if strings.Contains(l, sub) {
			return l
		}
	}
	t.Fatalf("no line holds %q", sub)
	return ""
}

// TestObjectNamedByMessage: kube-scheduler's two failure lines (batch20,
// run here) name their pod only in a field the message names by its kind
// — "Error scheduling pod; retrying" pod= (E) and "Unable to schedule
// pod; no fit; waiting" pod= err= (info) — and are read as the pod's
// failed attempts; the same shapes with another field, two key fields, no
// retry or waiting words, or no error are not, nor kube-green's "unable to
// fetch sleepInfo" (batch9/915, a negative: its reconciler returns nil).
func TestObjectNamedByMessage(t *testing.T) {
	sched := readTestdata(t, "testdata/batch20/2011-kube-scheduler-klog-v2-no-fit-waiting-taint-cpu-pvc-and-error-scheduling-pod-retrying-bind-webhook.log")
	bind := firstLineWith(t, sched, `"Error scheduling pod; retrying"`)
	noFit := firstLineWith(t, sched, `"Unable to schedule pod; no fit; waiting" pod="warehouse/report-builder`)
	green := firstLineWith(t, readTestdata(t, "testdata/batch9/915-negative-kube-green-spaced-zapconsole-unable-to-fetch-not-found-ignored.log"), "unable to fetch sleepInfo")
	for _, tt := range []struct {
		name, log, key, errPrefix string // key "": no key read
	}{
		{"error scheduling, retrying", bind, "warehouse/label-printer-7c9f4-hq2mv", `running Bind plugin "DefaultBinder": Internal error occurred`},
		{"unable to schedule, waiting", noFit, "warehouse/report-builder-6f2d1-n4c8r", "0/2 nodes are available: 2 node(s) had untolerated taint(s)"},
		{"the field is not the object the message names", strings.Replace(bind, ` pod="`, ` node="`, 1), "", ""},
		{"two key fields", strings.Replace(bind, ` pod="`, ` owner="ns/other" pod="`, 1), "", ""},
		{"no retry words", strings.Replace(bind, "; retrying", "", 1), "", ""},
		{"no waiting words", strings.Replace(noFit, "; waiting", "", 1), "", ""},
		{"no error field", noFit[:strings.Index(noFit, ` err="`)], "", ""},
		{"a reconciler's fetch error it ignores", green, "", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			wantOneKey(t, tt.log, oneKeyCase{key: tt.key, errPrefix: tt.errPrefix, failures: 1})
		})
	}
}

// TestQuotedKeyFailedWith: kube-aggregator's OpenAPI queues,
// HandleError(fmt.Errorf("loading OpenAPI spec for %q failed with: %v",
// key, err)) (batch20/2001, run here), are the key's failures; a quoted
// name inside the error, or after an error already stated, is not.
func TestQuotedKeyFailedWith(t *testing.T) {
	v3 := firstLineWith(t, readTestdata(t, "testdata/batch20/2001-kube-apiserver-klog-v2-remote-availability-503-and-x509-two-apiservices-openapi-v2-v3-rate-limited-requeue.log"), `controller.go:123]`)
	for _, tt := range []struct {
		name, log, key, errPrefix string
	}{
		{"the handler's words, then the key", v3, "v1alpha2.usage.northwind.dev", "Error, could not get list of group versions for APIService"},
		{"an error stated before the name", strings.Replace(v3, `loading OpenAPI spec for`, `loading the spec: OpenAPI for`, 1), "", ""},
		{"no colon after the phrase", strings.Replace(v3, "failed with: ", "failed with ", 1), "", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			wantOneKey(t, tt.log, oneKeyCase{key: tt.key, errPrefix: tt.errPrefix, failures: 1})
		})
	}
}
