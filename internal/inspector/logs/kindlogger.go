package logs

import "strings"

// A controller built on controller-runtime may replace the logger of each
// reconcile (its LogConstructor) with one named after the controller and
// carrying the object under its Kind as plain text: sail-operator's
// `ERROR ctrlr.istio Reconciler error {"Istio": "default", "reconcileID":
// …}` names no controller field, no controllerKind, and no name or
// namespace. controller-runtime names a controller after its kind in lower
// case (the builder's For()), so two things agree there: the logger's
// last segment is the controller, and the field named after that kind,
// capitalised, holds the key. Both are needed; a kind-named field alone is
// any field of a capitalised name (a "GVK", a "Pod" the line only
// mentions), and a logger alone names no key.

// noteKindField keeps a string field named like a Kind (an upper-case
// letter, then letters and digits) whose value is a key, namespace/name
// or a cluster-scoped name; kindFields counts such fields, and two are no
// key (kindNamed).
func (f *fields) noteKindField(key, val []byte) {
	if !kindLike(key) || f.kindFields > 0 && string(key) == f.kindField {
		return
	}
	if !nsName.Match(val) && !clusterName.Match(val) {
		return
	}
	f.kindFields++
	f.kindField, f.kindRef = string(key), string(val)
}

// kindNamed is the controller and key the line's logger and its one
// kind-named field agree on: the logger's last segment ("ctrlr.istio")
// is that field's name ("Istio"), letter case aside; the controller is
// that name in lower case. The field holds the key as text, or, where no
// such text field is, as controller-runtime's object (KubeRay's
// `"logger":"controllers.RayCluster"` with `"RayCluster":{"name":…,
// "namespace":…}` and no controller field: batch16/1620). ok is false
// otherwise.
func (f *fields) kindNamed() (controller, ns, name string, ok bool) {
	if f.logger == "" {
		return "", "", "", false
	}
	field, ref := f.kindField, f.kindRef
	switch {
	case f.kindFields == 1:
	case f.kindFields == 0 && f.kindObjs == 1:
		field, ref = string(f.kindObj), objectRef(f.kindObjRaw)
	default:
		return "", "", "", false
	}
	last := f.logger
	if i := strings.LastIndexAny(last, "./"); i >= 0 {
		last = last[i+1:]
	}
	if ref == "" || !strings.EqualFold(last, field) {
		return "", "", "", false
	}
	ns, name = splitRef(ref)
	return strings.ToLower(last), ns, name, true
}

// kindLike says key is written like a Kind: an upper-case ASCII letter,
// then ASCII letters and digits, at most 63.
func kindLike(key []byte) bool {
	if len(key) < 2 || len(key) > 63 || key[0] < 'A' || key[0] > 'Z' {
		return false
	}
	for _, c := range key[1:] {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}
