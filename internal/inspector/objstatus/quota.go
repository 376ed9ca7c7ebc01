package objstatus

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// requested is the quota admission plugin's refusal
// (k8s.io/apiserver/pkg/admission/plugin/resourcequota/controller.go):
// "exceeded quota: NAME, requested: pods=1, used: pods=0, limited: pods=0".
var requested = regexp.MustCompile(`requested: ([^ ]+), used: `)

// QuotaRoom says whether the ResourceQuota u still refuses what a failure's
// message says was requested: for each resource requested, used plus
// requested against hard, from the quota's status as it is now. full is
// false when the quota has room now (the user raised it) or the message
// names nothing it can check; line says the numbers either way.
func QuotaRoom(u *unstructured.Unstructured, message string) (full bool, line string) {
	hard, _, _ := unstructured.NestedStringMap(u.Object, "status", "hard")
	used, _, _ := unstructured.NestedStringMap(u.Object, "status", "used")
	m := requested.FindStringSubmatch(message)
	if m == nil {
		return false, "hard " + pairs(hard) + ", used " + pairs(used)
	}
	var words []string
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
	}
	if len(words) == 0 {
		return false, "hard " + pairs(hard) + ", used " + pairs(used)
	}
	if full {
		return true, "exceeded: " + strings.Join(words, "; ")
	}
	return false, "has room now: " + strings.Join(words, "; ")
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
