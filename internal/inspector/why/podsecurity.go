package why

import (
	"fmt"
	"regexp"
	"strings"
)

// violatesPodSecurity is Pod Security admission's refusal, as the
// controller that creates the pods logs it and records it in a
// FailedCreate event: `pods "x" is forbidden: violates PodSecurity
// "restricted:latest": allowPrivilegeEscalation != false (…)`.
var violatesPodSecurity = regexp.MustCompile(`violates PodSecurity "([a-z]+):([^"]+)": (.*)`)

// podSecurityFix is the fix for an object whose pods the namespace's Pod
// Security level refuses, or "" when msg is no such refusal. "Fix what
// the error names" left the user to find that two things can change: the
// pod template, which for a Job cannot be changed (its template is
// immutable: the Job is recreated), or the namespace's enforce label.
// Either way the controller is not told: its next retry, or the kick,
// creates the pods.
func podSecurityFix(o Object, msg string) string {
	m := violatesPodSecurity.FindStringSubmatch(oneLine(msg))
	if m == nil {
		return ""
	}
	template := "make its pod template comply"
	if o.Kind == "Job" && strings.HasPrefix(o.APIVersion, "batch/") {
		template = "recreate the Job with a pod template that complies (a Job's template cannot be changed)"
	}
	return fmt.Sprintf("Namespace %s enforces Pod Security %q and the pods break it (%s): %s, "+
		"or, if the namespace should allow such pods, change its level: `kubectl label namespace %s pod-security.kubernetes.io/enforce=baseline --overwrite`",
		o.Namespace, m[1], strings.TrimSuffix(m[3], "."), template, o.Namespace)
}
