package objstatus

import (
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// now is the "now" of the issues' relative times (testdata/README.md).
var now = time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)

func ago(d time.Duration) time.Time { return now.Add(-d) }

// jobStarted is a Job's status as the job controller writes it when every
// pod is refused: started, none active (built).
func jobStarted() map[string]any {
	return map[string]any{"startTime": ago(9 * time.Minute).Format(time.RFC3339), "ready": int64(0), "terminating": int64(0)}
}

// object builds an object of kind with the given status (the issues show
// only messages: every object here is built around them).
func object(apiVersion, kind string, created time.Time, status map[string]any) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]any{"apiVersion": apiVersion, "kind": kind,
		"metadata": map[string]any{"name": "x", "namespace": "ns", "generation": int64(1), "creationTimestamp": created.Format(time.RFC3339)}}}
	if status != nil {
		u.Object["status"] = status
	}
	return u
}

func cond(typ, status, reason, msg string) map[string]any {
	return map[string]any{"type": typ, "status": status, "reason": reason, "message": msg, "lastTransitionTime": ago(3 * time.Minute).Format(time.RFC3339)}
}

const (
	psaJob = `Error creating: pods "gatekeeper-update-crds-hook-rgzh6" is forbidden: violates PodSecurity "restricted:v1.24": seccompProfile (pod or container "install-oneagent" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")`
	odo1   = `Error creating: pods "nodejs-app-8665bd77fb-2dd4n" is forbidden: violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "runtime" must set securityContext.allowPrivilegeEscalation=false)`
	odo2   = `Error creating: pods "nodejs-app-8665bd77fb-kpvmf" is forbidden: violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "runtime" must set securityContext.allowPrivilegeEscalation=false)`
	saMsg  = `Error creating: pods "citrix-ipam-controller-865fb885-" is forbidden: error looking up service account kube-system/citrix-ipam-controller: serviceaccount "citrix-ipam-controller" not found`
	hpaMsg = `the HPA controller was unable to get the target's current scale: deployments/scale.apps "sc4s-splunk-connect-for-syslog" not found`
	scMsg  = `storageclass.storage.k8s.io "fast" not found`
	quota  = `(combined from similar events): Error creating: pods "allocation-manager-6597bc46dc-2wm8j" is forbidden: exceeded quota: namespace-quota, requested: limits.cpu=1,limits.memory=2Gi, used: limits.cpu=6,limits.memory=12Gi, limited: limits.cpu=6,limits.memory=12Gi`
)

// TestEvidenceOverridesKStatus: each "not Current" rule on the issues'
// own messages; kstatus's first opinion is kept beside the override.
func TestEvidenceOverridesKStatus(t *testing.T) {
	for _, tc := range []struct {
		name     string
		u        *unstructured.Unstructured
		events   []Event
		status   string
		override string
		says     []string
	}{
		{name: "job refused by PodSecurity (gatekeeper#2695, 7 times)",
			u:      object("batch/v1", "Job", ago(10*time.Minute), jobStarted()),
			events: []Event{{Type: "Warning", Reason: "FailedCreate", Message: psaJob, Count: 7, FirstSeen: ago(9 * time.Minute), LastSeen: ago(3*time.Minute + 16*time.Second)}},
			status: InProgress, override: "failure-events",
			says: []string{"not Current: 7 FailedCreate events since the last change, the latest 3m16s ago", "violates PodSecurity", "kstatus said Current"}},
		{name: "replicationcontroller ReplicaFailure (netscaler#113's condition on a built RC)",
			u: object("v1", "ReplicationController", ago(time.Hour), map[string]any{"replicas": int64(0), "observedGeneration": int64(1),
				"conditions": []any{cond("ReplicaFailure", "True", "FailedCreate", saMsg)}}),
			status: InProgress, override: "failure-condition",
			says: []string{"not Current: ReplicaFailure=True (FailedCreate)", `serviceaccount "citrix-ipam-controller" not found`}},
		{name: "hpa AbleToScale=False FailedGetScale (splunk-connect-for-syslog#1289)",
			u: object("autoscaling/v2", "HorizontalPodAutoscaler", ago(time.Hour), map[string]any{
				"conditions": []any{cond("AbleToScale", "False", "FailedGetScale", hpaMsg)}}),
			status: InProgress, override: "failure-condition",
			says: []string{"not Current: AbleToScale=False (FailedGetScale)", `deployments/scale.apps "sc4s-splunk-connect-for-syslog" not found`}},
		{name: "pvc ProvisioningFailed x39 over 71m (K8S-FastDFS#6): kstatus already InProgress, the events are said",
			u:      object("v1", "PersistentVolumeClaim", ago(72*time.Minute), map[string]any{"phase": "Pending"}),
			events: []Event{{Type: "Warning", Reason: "ProvisioningFailed", Message: scMsg, Count: 39, FirstSeen: ago(71 * time.Minute), LastSeen: ago(11 * time.Second)}},
			status: InProgress,
			says:   []string{"39 ProvisioningFailed events since the last change, the latest 11s ago"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := Judge(tc.u)
			v.JudgeEvents(tc.events, tc.u.GetCreationTimestamp().Time, now)
			if v.Status != tc.status || v.Override != tc.override {
				t.Fatalf("status %s override %q; want %s %q (evidence %q)", v.Status, v.Override, tc.status, tc.override, v.Evidence)
			}
			all := strings.Join(v.Evidence, "\n")
			for _, s := range tc.says {
				if !strings.Contains(all, s) {
					t.Errorf("evidence %q lacks %q", all, s)
				}
			}
			if len(v.Failures) == 0 {
				t.Errorf("no failures recorded")
			}
		})
	}
}

// TestEvidenceNotAFailure: what must stay Current.
func TestEvidenceNotAFailure(t *testing.T) {
	created := ago(7 * 24 * time.Hour)
	for _, tc := range []struct {
		name   string
		u      *unstructured.Unstructured
		events []Event
		since  time.Time
	}{
		{name: "hpa scaled to zero on purpose (built)", u: object("autoscaling/v2", "HorizontalPodAutoscaler", created, map[string]any{
			"conditions": []any{cond("ScalingActive", "False", "ScalingDisabled", "scaling is disabled since the replica count of the target is zero")}}), since: created},
		{name: "quota failures then a SuccessfulCreate (cloud-platform#590)", u: object("v1", "ReplicationController", created, map[string]any{"replicas": int64(3)}),
			events: []Event{
				{Type: "Warning", Reason: "FailedCreate", Message: quota, Count: 124, FirstSeen: ago(6 * 24 * time.Hour), LastSeen: ago(59 * time.Minute)},
				{Type: "Normal", Reason: "SuccessfulCreate", Message: `Created pod: allocation-manager-6597bc46dc-wtqkj`, Count: 1, LastSeen: ago(59 * time.Minute).Add(time.Second)}},
			since: created},
		{name: "the failures came before the last change", u: object("batch/v1", "Job", created, jobStarted()),
			events: []Event{{Type: "Warning", Reason: "FailedCreate", Message: psaJob, Count: 7, FirstSeen: ago(time.Hour), LastSeen: ago(30 * time.Minute)}},
			since:  ago(10 * time.Minute)},
		{name: "once is not recurring", u: object("batch/v1", "Job", created, jobStarted()),
			events: []Event{{Type: "Warning", Reason: "FailedCreate", Message: psaJob, Count: 1, LastSeen: ago(time.Minute)}}, since: created},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := Judge(tc.u)
			v.JudgeEvents(tc.events, tc.since, now)
			if v.Status != Current {
				t.Errorf("status %s (%q); want Current", v.Status, v.Evidence)
			}
		})
	}
}

// TestFoldEvents: odo#6847's two FailedCreate rows differ only in the
// generated pod name, and an aggregate of them (tektoncd/triggers#1477's
// prefix) is the same series: one row; another reason stays apart.
func TestFoldEvents(t *testing.T) {
	got := FoldEvents([]Event{
		{Type: "Warning", Reason: "FailedCreate", Message: odo1, Count: 1, LastSeen: ago(2*time.Minute + 6*time.Second)},
		{Type: "Warning", Reason: "FailedCreate", Message: odo2, Count: 3, FirstSeen: ago(5 * time.Minute), LastSeen: ago(time.Minute)},
		{Type: "Normal", Reason: "ScalingReplicaSet", Message: "Scaled up replica set nodejs-app-8665bd77fb to 1", LastSeen: ago(6 * time.Minute)},
		// tekton triggers#1477: the correlator's aggregate of the same series
		{Type: "Warning", Reason: "FailedCreate", Message: "(combined from similar events): " + odo1, Count: 2, FirstSeen: ago(4 * time.Minute), LastSeen: ago(3 * time.Minute)},
	})
	if len(got) != 2 {
		t.Fatalf("rows %+v; want 2", got)
	}
	f := got[0]
	if f.Count != 6 || !f.FirstSeen.Equal(ago(5*time.Minute)) || !f.LastSeen.Equal(ago(time.Minute)) || f.Message != odo2 {
		t.Errorf("folded %+v; want count 6, first 5m ago, last 1m ago, the newest message", f)
	}
}
