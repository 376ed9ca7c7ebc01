package logs

import (
	"testing"
	"time"
)

// TestStdlogPairs reads controller-runtime's records as go-logr/stdr writes
// them over Go's log (batch27/2721, caller and microseconds: the line the
// rule was written from): the Error record is a failure of its key, with
// its error; the Info records around it (a sync, a timed requeue: 2706's)
// and a Go log line of text that opens with a quoted name are not.
func TestStdlogPairs(t *testing.T) {
	ref := time.Date(2026, 12, 8, 3, 0, 0, 0, time.UTC)
	r, ok := Parse([]byte(`2026/12/08 02:57:53.916760 "caller"={"file"="controller.go" "line"=497} "msg"="Reconciler error" "error"="reading referenced secrets apps/api-token: secrets \"api-token\" not found" "controller"="configmap" "controllerGroup"="" "controllerKind"="ConfigMap" "ConfigMap"={"name"="cm-api" "namespace"="apps"} "namespace"="apps" "name"="cm-api" "reconcileID"="74d929b6-1af8-4027-8685-5538888877b7"`), ref)
	if !ok {
		t.Fatalf("stdr's Reconciler error record not read")
	}
	if e, a := "apps/cm-api", r.Namespace+"/"+r.Name; e != a {
		t.Errorf("key %q, want %q", a, e)
	}
	if e, a := `reading referenced secrets apps/api-token: secrets "api-token" not found`, r.Error; e != a {
		t.Errorf("error %q, want %q", a, e)
	}
	if e, a := time.Date(2026, 12, 8, 2, 57, 53, 916760000, time.UTC), r.At; !e.Equal(a) {
		t.Errorf("at %v, want %v", a, e)
	}
	for _, line := range []string{
		`2026/12/08 02:57:53.931692 "caller"={"file"="main.go" "line"=86} "level"=0 "msg"="configmap synced" "controller"="configmap" "controllerGroup"="" "controllerKind"="ConfigMap" "ConfigMap"={"name"="cm-web" "namespace"="apps"} "namespace"="apps" "name"="cm-web" "reconcileID"="296cac7b-6d7d-4fab-9d67-91bafe4566ea"`,
		`2026/12/08 02:51:55 "level"=0 "msg"="rollout not finished, checking again" "controller"="configmap" "controllerGroup"="" "controllerKind"="ConfigMap" "ConfigMap"={"name"="cm-rollout" "namespace"="apps"} "namespace"="apps" "name"="cm-rollout" "reconcileID"="bff87229-9820-4cff-81b5-f7b8d3be3f1e" "after"="3s"`,
		`2026/12/08 02:57:53 "cm-api" failed: secrets "api-token" not found`,
	} {
		if r, ok := Parse([]byte(line), ref); ok && r.Error != "" {
			t.Errorf("%s: read as a failure of %s/%s: %q", line, r.Namespace, r.Name, r.Error)
		}
	}
}
