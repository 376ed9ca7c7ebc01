package why

import (
	"regexp"
	"strings"
)

// psaViolation is one item of Pod Security admission's refusal, "reason
// (detail)": `privileged (container "x" must not set
// securityContext.privileged=true)`.
type psaViolation struct{ reason, detail string }

// psaViolations splits the list that follows `violates PodSecurity "L:V": `
// into its items, "reason (detail), reason (detail)" (policy.
// AggregateCheckResults' ForbiddenDetail); a detail's own parentheses are
// kept, and a reason with no detail has none.
func psaViolations(list string) []psaViolation {
	var out []psaViolation
	var v psaViolation
	depth, start := 0, 0
	for i, r := range list {
		switch {
		case r == '(':
			if depth == 0 {
				v.reason = strings.TrimSpace(list[start:i])
				start = i + 1
			}
			depth++
		case r == ')' && depth > 0:
			depth--
			if depth == 0 {
				v.detail = list[start:i]
				out = append(out, v)
				v, start = psaViolation{}, i+1
			}
		case r == ',' && depth == 0:
			if s := strings.TrimSpace(list[start:i]); s != "" {
				out = append(out, psaViolation{reason: s})
			}
			start = i + 1
		}
	}
	if s := strings.TrimSpace(strings.TrimSuffix(list[start:], ".")); s != "" {
		out = append(out, psaViolation{reason: s})
	}
	return out
}

// Pod Security's levels, least permissive first.
const (
	psaRestricted = "restricted"
	psaBaseline   = "baseline"
	psaPrivileged = "privileged"
)

// psaRestrictedOnly are the reasons of the checks that
// k8s.io/pod-security-admission/policy registers at api.LevelRestricted
// (check_allowPrivilegeEscalation.go, check_runAsNonRoot.go,
// check_runAsUser.go, check_capabilities_restricted.go,
// check_restrictedVolumes.go, check_seccompProfile_restricted.go): a pod
// that breaks only these is admitted by baseline. Every other reason is a
// baseline check's (privileged, host namespaces, hostPort, hostPath
// volumes, non-default capabilities, forbidden AppArmor profile,
// seLinuxOptions, forbidden sysctls, hostProcess, probe or lifecycle host,
// procMount), which only privileged admits; so is a reason this list does
// not know, since privileged is the one level sure to admit it.
var psaRestrictedOnly = map[string]bool{
	"allowPrivilegeEscalation != false": true,
	"runAsNonRoot != true":              true,
	"runAsUser=0":                       true,
	"unrestricted capabilities":         true,
	"restricted volume types":           true,
	"seccompProfile":                    true,
}

// baselineCapabilities are the capabilities baseline lets a container
// add (check_capabilities_baseline.go, capabilities_allowed_1_0).
var baselineCapabilities = map[string]bool{"AUDIT_WRITE": true, "CHOWN": true, "DAC_OVERRIDE": true, "FOWNER": true,
	"FSETID": true, "KILL": true, "MKNOD": true, "NET_BIND_SERVICE": true, "SETFCAP": true, "SETGID": true,
	"SETPCAP": true, "SETUID": true, "SYS_CHROOT": true}

// quotedValue is a detail's quoted values: `"CHOWN", "SYS_ADMIN"`.
var quotedValue = regexp.MustCompile(`"([^"]*)"`)

// psaLevelFor is the least level that admits v. Three restricted checks
// stand in for a baseline one at the restricted level, so their detail
// says which: capabilities added beyond baseline's set ("must not include
// "SYS_ADMIN" in securityContext.capabilities.add"), a hostPath volume
// (`uses restricted volume type "hostPath"`), and a seccomp profile set to
// "Unconfined" ("must not set … to "Unconfined"") break baseline too.
func psaLevelFor(v psaViolation) string {
	if !psaRestrictedOnly[v.reason] {
		return psaPrivileged
	}
	switch v.reason {
	case "unrestricted capabilities":
		for _, part := range strings.Split(v.detail, ";") {
			_, added, ok := strings.Cut(part, "must not include ")
			if !ok {
				continue
			}
			for _, m := range quotedValue.FindAllStringSubmatch(added, -1) {
				if !baselineCapabilities[strings.TrimPrefix(m[1], "CAP_")] {
					return psaPrivileged
				}
			}
		}
	case "restricted volume types":
		if strings.Contains(v.detail, `"hostPath"`) {
			return psaPrivileged
		}
	case "seccompProfile":
		if strings.Contains(v.detail, `"Unconfined"`) && strings.Contains(v.detail, "must not set") {
			return psaPrivileged
		}
	}
	return psaBaseline
}

// psaLeastLevel is the least level that admits every violation, and never
// enforced itself nor one below it: what broke enforced's checks needs the
// level above.
func psaLeastLevel(enforced string, vs []psaViolation) string {
	rank := map[string]int{psaRestricted: 0, psaBaseline: 1, psaPrivileged: 2}
	least := psaBaseline
	if enforced != psaRestricted {
		least = psaPrivileged
	}
	for _, v := range vs {
		if l := psaLevelFor(v); rank[l] > rank[least] {
			least = l
		}
	}
	return least
}
