package logs

import "strings"

// namespaceIsKey says whether a line's namespace field is the failing
// object's own key: its message names the kind namespace where it says
// what failed (head, before its error), and no field names an object in
// it. A Namespace's handler logs `sync namespace info failed, will retry
// {"namespace": "kube-public", …}`: the field is then the Namespace's name
// (a cluster-scoped key), not the namespace of some other object. Only
// the namespace field is read so: it is the one field of a kind's name
// this package keeps (fields.wants) whose value is a whole key alone; a
// line that also has a name field is read as namespace/name before this.
func (f *fields) namespaceIsKey(head string) bool {
	if f.namespace == "" || f.name != "" || f.ref() != "" || f.alt != "" || !clusterName.MatchString(f.namespace) {
		return false
	}
	for w := range strings.FieldsSeq(strings.ToLower(head)) {
		if strings.Trim(w, `"'(),.:;`) == "namespace" {
			return true
		}
	}
	return false
}
