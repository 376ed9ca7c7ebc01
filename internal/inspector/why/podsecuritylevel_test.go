package why

import (
	"strings"
	"testing"
)

// TestPodSecurityLeastLevel: the level the relabel names is the least that
// admits every violation. The messages are what
// k8s.io/pod-security-admission v0.37.2's evaluator (policy.DefaultChecks,
// AggregateCheckResults) writes for each pod at "restricted:latest", the
// list that kcm's FailedCreate event carries after `violates PodSecurity
// "restricted:latest": `; the want is the level at which the same
// evaluator admitted the pod (baseline refused privileged, SYS_ADMIN, a
// hostPath volume, an Unconfined seccomp profile and host namespaces).
func TestPodSecurityLeastLevel(t *testing.T) {
	for _, tt := range []struct {
		name, enforced, list, want string
	}{
		{"migrate (testdata/kcm/job-podsecurity-v2.log)", "restricted", `allowPrivilegeEscalation != false (container "migrate" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "migrate" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "migrate" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "migrate" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")`, "baseline"},
		{"privileged", "restricted", `privileged (container "priv" must not set securityContext.privileged=true), allowPrivilegeEscalation != false (container "priv" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "priv" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "priv" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "priv" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")`, "privileged"},
		{"privileged under baseline", "baseline", `privileged (container "priv" must not set securityContext.privileged=true)`, "privileged"},
		{"adds SYS_ADMIN", "restricted", `allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]; container "c" must not include "CHOWN", "SYS_ADMIN" in securityContext.capabilities.add), runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")`, "privileged"},
		{"adds CHOWN", "restricted", `allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]; container "c" must not include "CHOWN" in securityContext.capabilities.add), runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")`, "baseline"},
		{"hostPath", "restricted", `allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]), restricted volume types (volume "h" uses restricted volume type "hostPath"), runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")`, "privileged"},
		{"Unconfined", "restricted", `allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true), seccompProfile (pod must not set securityContext.seccompProfile.type to "Unconfined")`, "privileged"},
		{"hostNetwork", "restricted", `host namespaces (hostNetwork=true), hostPort (container "c" uses hostPort 80), allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")`, "privileged"},
	} {
		vs := psaViolations(tt.list)
		if n := strings.Count(tt.list, "), ") + 1; len(vs) != n {
			t.Errorf("%s: %d violations read, want %d: %q", tt.name, len(vs), n, vs)
		}
		if got := psaLeastLevel(tt.enforced, vs); got != tt.want {
			t.Errorf("%s: least level %q, want %q", tt.name, got, tt.want)
		}
	}
}
