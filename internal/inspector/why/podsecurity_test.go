package why

import (
	"strings"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// TestPodSecurityFix: a Job whose pods the namespace's Pod Security level
// refuses (open-policy-agent/gatekeeper#2695's event, verbatim) was told
// "Fix what the error names: …", then to kick; a Job's pod template cannot
// be changed, so the fix is to recreate it, or to change the namespace's
// level, after which the kick does create the pods. A ReplicaSet's
// template is changed through its Deployment: comply, or relabel.
func TestPodSecurityFix(t *testing.T) {
	const msg = `Error creating: pods "gatekeeper-update-crds-hook-rgzh6" is forbidden: violates PodSecurity "restricted:v1.24": seccompProfile (pod or container "crds-upgrade" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")`
	for _, tt := range []struct {
		obj       Object
		want, not string
	}{
		{Object{APIVersion: "batch/v1", Kind: "Job", Namespace: "gatekeeper-system", Name: "gatekeeper-update-crds-hook", Key: "gatekeeper-system/gatekeeper-update-crds-hook"},
			"recreate the Job with a pod template that complies (a Job's template cannot be changed)", "Fix what the error names"},
		{Object{APIVersion: "apps/v1", Kind: "ReplicaSet", Namespace: "gatekeeper-system", Name: "web-1", Key: "gatekeeper-system/web-1"},
			"make its pod template comply", "recreate"},
	} {
		a := &Answer{Object: tt.obj, Now: now, Backoff: &Backoff{Source: SourceLogs, Controller: "job-controller",
			Key: &api.Key{Key: tt.obj.Key, State: api.StateBackoff, Failures: 4, NextRetryAt: now.Add(time.Minute),
				LastError: &api.ErrorRecord{Message: msg, At: now}}}}
		_, next := explainKey(a, "kubectl backoff")
		got := strings.Join(next, "\n")
		for _, want := range []string{tt.want, `Namespace gatekeeper-system enforces Pod Security "restricted"`, "seccompProfile (pod or container",
			"`kubectl label namespace gatekeeper-system pod-security.kubernetes.io/enforce=baseline --overwrite`", "Then retry at once: "} {
			if !strings.Contains(got, want) {
				t.Errorf("%s: next\n%s\nlacks %q", tt.obj.Kind, got, want)
			}
		}
		if strings.Contains(got, tt.not) {
			t.Errorf("%s: next\n%s\nsays %q", tt.obj.Kind, got, tt.not)
		}
	}
	if s := podSecurityFix(Object{Kind: "Job", APIVersion: "batch/v1"}, `exceeded quota: q, requested: pods=1`); s != "" {
		t.Errorf("a quota's refusal read as Pod Security's: %q", s)
	}
}

// TestPodSecurityFixPrivileged: a Job with a privileged container in a
// namespace enforcing restricted was told to relabel it baseline, which
// refuses privileged too. The message is the one Pod Security admission
// (k8s.io/pod-security-admission v0.37.2's evaluator) writes for that pod
// at "restricted:latest". The template's changes come first, then the
// label at privileged; never the level enforced.
func TestPodSecurityFixPrivileged(t *testing.T) {
	const msg = `Error creating: pods "priv-x7k2p" is forbidden: violates PodSecurity "restricted:latest": privileged (container "priv" must not set securityContext.privileged=true), allowPrivilegeEscalation != false (container "priv" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "priv" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "priv" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "priv" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")`
	got := podSecurityFix(Object{APIVersion: "batch/v1", Kind: "Job", Namespace: "psa", Name: "priv"}, msg)
	label := "`kubectl label namespace psa pod-security.kubernetes.io/enforce=privileged --overwrite`"
	for _, want := range []string{`container "priv" must not set securityContext.privileged=true`, "baseline refuses privileged too", label} {
		if !strings.Contains(got, want) {
			t.Errorf("fix\n%s\nlacks %q", got, want)
		}
	}
	if i, j := strings.Index(got, "recreate the Job"), strings.Index(got, label); i < 0 || j < i {
		t.Errorf("fix\n%s\ndoes not put the template's change before the label", got)
	}
	for _, not := range []string{"enforce=baseline", "enforce=restricted"} {
		if strings.Contains(got, not) {
			t.Errorf("fix\n%s\nsays %q", got, not)
		}
	}
	under := podSecurityFix(Object{APIVersion: "batch/v1", Kind: "Job", Namespace: "psa", Name: "priv"},
		`pods "priv-x7k2p" is forbidden: violates PodSecurity "baseline:latest": privileged (container "priv" must not set securityContext.privileged=true)`)
	if !strings.Contains(under, "enforce=privileged") || strings.Contains(under, "enforce=baseline") {
		t.Errorf("under baseline, fix\n%s\nshould name privileged, never baseline", under)
	}
}
