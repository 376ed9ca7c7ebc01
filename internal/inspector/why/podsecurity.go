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
// The template comes first: it keeps the namespace's guard. The label
// names the least level that admits every violation (psaLeastLevel):
// "baseline" for a privileged container was a relabel that changed
// nothing. Either way the controller is not told: its next retry, or the
// kick, creates the pods.
func podSecurityFix(o Object, msg string) string {
	m := violatesPodSecurity.FindStringSubmatch(oneLine(msg))
	if m == nil {
		return ""
	}
	vs := psaViolations(m[3])
	template := "make its pod template comply"
	if o.Kind == "Job" && strings.HasPrefix(o.APIVersion, "batch/") {
		template = "recreate the Job with a pod template that complies (a Job's template cannot be changed)"
	}
	changes := make([]string, 0, len(vs))
	var above []string // what baseline refuses too
	for _, v := range vs {
		c := v.reason
		if v.detail != "" {
			c += " (" + v.detail + ")"
		}
		changes = append(changes, c)
		if psaLevelFor(v) == psaPrivileged {
			above = append(above, v.reason)
		}
	}
	level := psaLeastLevel(m[1], vs)
	why := "the least that admits them"
	if level == psaPrivileged && m[1] == psaRestricted && len(above) > 0 {
		why = fmt.Sprintf("the least that admits them: baseline refuses %s too", strings.Join(above, ", "))
	}
	return fmt.Sprintf("Namespace %s enforces Pod Security %q and the pods break it: %s: %s; "+
		"or, if the namespace should allow such pods, change its level to %s (%s): `kubectl label namespace %s pod-security.kubernetes.io/enforce=%s --overwrite`",
		o.Namespace, m[1], template, strings.TrimSuffix(strings.Join(changes, "; "), "."), level, why, o.Namespace, level)
}
