package objstatus

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// refusal is the quota admission plugin's refusal
// (k8s.io/apiserver/pkg/admission/plugin/resourcequota/controller.go):
// "exceeded quota: NAME, requested: pods=1, used: pods=0, limited: pods=0",
// each list NAME=QUANTITY joined by commas.
var refusal = regexp.MustCompile(`requested: ` + quotaList + `, used: ` + quotaList + `(?:, limited: ` + quotaList + `)?`)

// quotaList is a refusal's list: NAME=QUANTITY joined by commas, no space.
const quotaList = `([^\s,"']+(?:,[^\s,"']+)*)`

// QuotaRoom says whether the ResourceQuota u still refuses what a failure's
// message says was requested: for each resource requested, used plus
// requested against hard, from the quota's status as it is now. full is
// false when the quota has room now (the user raised it) or the message
// names nothing it can check; line says the numbers either way.
//
// A quota raised since the refusal (its hard above the message's limit)
// whose new hard admits what was refused, at the use the message names,
// is not full either, whatever it uses now: the message is the first
// failure's (a ReplicaSet keeps it in ReplicaFailure, a Deployment copies
// it), and what was refused since counts in the use ("used 2 of hard 2, 1
// requested", after raising pods from 0 to 2 and both pods created, on a
// real kube-controller-manager). A refusal made after the raise says the
// new limit, and is judged by the use now.
func QuotaRoom(u *unstructured.Unstructured, message string) (full bool, line string) {
	hard, _, _ := unstructured.NestedStringMap(u.Object, "status", "hard")
	used, _, _ := unstructured.NestedStringMap(u.Object, "status", "used")
	m := refusal.FindStringSubmatch(message)
	if m == nil {
		return false, "hard " + pairs(hard) + ", used " + pairs(used)
	}
	usedThen, limitThen := quantities(m[2]), quantities(m[3])
	var words, raised []string
	admitted := true
	for _, kv := range strings.Split(m[1], ",") {
		name, q, ok := strings.Cut(kv, "=")
		if !ok {
			continue
		}
		req, err1 := resource.ParseQuantity(q)
		h, err2 := resource.ParseQuantity(hard[name])
		if err1 != nil || err2 != nil {
			continue
		}
		u := resource.MustParse("0")
		if s, ok := used[name]; ok {
			u, _ = resource.ParseQuantity(s)
		}
		sum := u.DeepCopy()
		sum.Add(req)
		if sum.Cmp(h) > 0 {
			full = true
		}
		words = append(words, fmt.Sprintf("%s: used %s of hard %s, %s requested", name, u.String(), h.String(), req.String()))
		then, okUsed := usedThen[name]
		limit, okLimit := limitThen[name]
		if !okUsed || !okLimit || h.Cmp(limit) <= 0 {
			admitted = false
			continue
		}
		then.Add(req)
		if then.Cmp(h) > 0 {
			admitted = false
			continue
		}
		then.Sub(req)
		raised = append(raised, fmt.Sprintf("%s: hard %s then, %s now: room for the %s requested at used %s (used %s now)",
			name, limit.String(), h.String(), req.String(), then.String(), u.String()))
	}
	if len(words) == 0 {
		return false, "hard " + pairs(hard) + ", used " + pairs(used)
	}
	switch {
	case !full:
		return false, "has room now: " + strings.Join(words, "; ")
	case admitted && len(raised) == len(words):
		return false, "raised since it refused: " + strings.Join(raised, "; ")
	}
	return true, "exceeded: " + strings.Join(words, "; ")
}

// quantities reads a refusal's list, "pods=1,requests.cpu=500m"; what does
// not parse is left out.
func quantities(list string) map[string]resource.Quantity {
	out := map[string]resource.Quantity{}
	for _, kv := range strings.Split(list, ",") {
		name, q, ok := strings.Cut(kv, "=")
		if !ok {
			continue
		}
		if v, err := resource.ParseQuantity(q); err == nil {
			out[name] = v
		}
	}
	return out
}

func pairs(m map[string]string) string {
	var out []string
	for k, v := range m {
		out = append(out, k+"="+v)
	}
	slices.Sort(out)
	if len(out) == 0 {
		return "-"
	}
	return strings.Join(out, ",")
}
