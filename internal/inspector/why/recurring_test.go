package why

import (
	"context"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/kubernetes/fake"
	"sigs.k8s.io/yaml"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/objstatus"
)

// TestRecurringPodSecurityWithoutLog: the Job with a privileged container
// in a namespace enforcing restricted, asked without kube-controller-
// manager's log: no backoff was read, and the answer was the FailedCreate
// event with no step. The event (kcm's job-controller writes "Error
// creating: " and the API server's refusal, Pod Security admission's list
// as k8s.io/pod-security-admission v0.37.2 writes it) names the namespace
// and the fix: both are given, and the kick.
func TestRecurringPodSecurityWithoutLog(t *testing.T) {
	const job = `apiVersion: batch/v1
kind: Job
metadata:
  name: priv
  namespace: psa
  uid: 5f0c3b9e-2a61-4f7e-9c1d-7b2e8f3a4d10
  generation: 1
  creationTimestamp: "2026-12-08T01:40:00Z"
  managedFields:
  - manager: kube-controller-manager
    operation: Update
    subresource: status
    apiVersion: batch/v1
    time: "2026-12-08T01:40:01Z"
    fieldsType: FieldsV1
    fieldsV1: {"f:status": {"f:startTime": {}, "f:active": {}}}
spec:
  template:
    spec:
      restartPolicy: Never
      containers:
      - name: priv
        image: busybox
        securityContext: {privileged: true}
status:
  startTime: "2026-12-08T01:40:01Z"
`
	var m map[string]any
	if err := yaml.Unmarshal([]byte(job), &m); err != nil {
		t.Fatal(err)
	}
	u := &unstructured.Unstructured{Object: m}
	now := time.Date(2026, 12, 8, 1, 50, 0, 0, time.UTC)
	const msg = `Error creating: pods "priv-x7k2p" is forbidden: violates PodSecurity "restricted:latest": privileged (container "priv" must not set securityContext.privileged=true), allowPrivilegeEscalation != false (container "priv" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "priv" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "priv" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "priv" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")`
	a := &Asker{Now: func() time.Time { return now },
		Events: func(context.Context, *unstructured.Unstructured) ([]objstatus.Event, error) {
			return []objstatus.Event{{Type: "Warning", Reason: "FailedCreate", Message: msg,
				Count: 9, FirstSeen: now.Add(-10 * time.Minute), LastSeen: now.Add(-40 * time.Second)}}, nil
		}}
	// Alone, and as the cluster answers when kube-controller-manager runs
	// as a process (hack/try-cluster.sh's): no pod of it to find.
	for _, finder := range []*Finder{nil, {Core: fake.NewClientset()}} {
		a.Finder = finder
		a.cache = eventCache{}
		checkPodSecuritySteps(t, a.Ask(context.Background(), u, "jobs"))
	}
}

// checkPodSecuritySteps: ans, read without the controller's backoff, gives
// the privileged Job's fix and kick.
func checkPodSecuritySteps(t *testing.T, ans *Answer) {
	t.Helper()
	if ans.Backoff != nil && ans.Backoff.Key != nil {
		t.Fatalf("a backoff was read: %+v", ans.Backoff)
	}
	next := strings.Join(ans.Next, "\n")
	for _, want := range []string{`Namespace psa enforces Pod Security "restricted"`, "recreate the Job with a pod template that complies",
		"`kubectl label namespace psa pod-security.kubernetes.io/enforce=privileged --overwrite`", "`kubectl backoff kick --kind Job.batch psa/priv`"} {
		if !strings.Contains(next, want) {
			t.Errorf("summary %q, next\n%s\nlacks %q", ans.Summary, next, want)
		}
	}
}
