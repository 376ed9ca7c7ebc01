package describe

import (
	"context"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	"k8s.io/client-go/kubernetes/fake"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/objstatus"
)

// psaRefused is the job controller's FailedCreate message for a pod refused
// by PodSecurity (gatekeeper#2695; objstatus' evidence_test has it too).
const psaRefused = `Error creating: pods "gatekeeper-update-crds-hook-rgzh6" is forbidden: violates PodSecurity "restricted:v1.24": seccompProfile (pod or container "install-oneagent" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")`

// TestDescribeJudgesEventsAsWhy: a Job whose every pod PodSecurity refuses
// has no condition that says so, only its FailedCreate events; kstatus
// calls it Current. describe's verdict is why's, by the one events rule
// (objstatus.Verdict.JudgeObjectEvents): InProgress, with the events said.
// Before, describe read the events, showed them, and said Current.
func TestDescribeJudgesEventsAsWhy(t *testing.T) {
	created := objNow.Add(-10 * time.Minute)
	job := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "batch/v1", "kind": "Job",
		"metadata": map[string]any{"namespace": "gatekeeper-system", "name": "update-crds", "uid": "uid-job", "generation": int64(1),
			"creationTimestamp": created.Format(time.RFC3339)},
		"status": map[string]any{"startTime": objNow.Add(-9 * time.Minute).Format(time.RFC3339), "ready": int64(0), "terminating": int64(0)}}}
	ev := &corev1.Event{ObjectMeta: metav1.ObjectMeta{Namespace: "gatekeeper-system", Name: "update-crds.1"},
		InvolvedObject: corev1.ObjectReference{Kind: "Job", Namespace: "gatekeeper-system", Name: "update-crds", UID: "uid-job"},
		Type:           corev1.EventTypeWarning, Reason: "FailedCreate", Message: psaRefused, Count: 7,
		FirstTimestamp: metav1.NewTime(objNow.Add(-9 * time.Minute)), LastTimestamp: metav1.NewTime(objNow.Add(-3*time.Minute - 16*time.Second))}
	jobGVK := schema.GroupVersionKind{Group: "batch", Version: "v1", Kind: "Job"}
	mapper := meta.NewDefaultRESTMapper(nil)
	mapper.Add(jobGVK, meta.RESTScopeNamespace)
	r := &ObjectReader{Dynamic: dynamicfake.NewSimpleDynamicClient(runtime.NewScheme(), job.DeepCopy()), Mapper: mapper,
		Core: fake.NewClientset(ev), Now: func() time.Time { return objNow }}

	got, err := r.Read(context.Background(), api.GroupVersionKind{Group: "batch", Version: "v1", Kind: "Job"}, "gatekeeper-system/update-crds")
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	v := got.Verdict
	if v.Status != objstatus.InProgress || v.KStatus != objstatus.Current || v.Override != "failure-events" {
		t.Errorf("verdict %s (kstatus %s, override %q); want InProgress over kstatus' Current by failure-events", v.Status, v.KStatus, v.Override)
	}
	if want := "7 FailedCreate events since the last change, the latest 3m16s ago: " + psaRefused; v.Recurring != want {
		t.Errorf("recurring\n %s\nwant\n %s", v.Recurring, want)
	}
	// why judges the same object and events the same way.
	w := objstatus.Judge(job)
	w.JudgeObjectEvents(job, got.Events, objNow)
	if w.Status != v.Status || w.Message != v.Message || w.Recurring != v.Recurring {
		t.Errorf("describe %s %q; why's rule %s %q", v.Status, v.Message, w.Status, w.Message)
	}
}
