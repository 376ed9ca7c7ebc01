package logs

import (
	"regexp"
	"strings"
)

// kube-rs (kube-runtime's Controller, the framework of stackable's and
// many Rust operators) names the object of a failed reconcile in the
// error its stream yields: Error::ReconcilerFailed displays "reconciler
// for object REF failed" (kube-rs #733, 2021; ": ERR" appended later),
// REF its ObjectRef as Display writes it, KIND.VERSION.GROUP/NAME and
// ".NAMESPACE" for a namespaced object (the core group empty:
// "Pod.v1./x.ns"). The error_policy then schedules the retry: a failed
// attempt of that key (batch24/2401, stackable-operator's "Failed to
// reconcile object … error=reconciler for object … failed"). Its other
// errors name no attempt: ObjectNotFound ("tried to reconcile object REF
// that was not found in local store": nothing ran) and QueueError ("event
// queue error": the watch).
var objectRefFailed = regexp.MustCompile(`\breconciler for object ([A-Z][A-Za-z0-9]*)\.v[0-9]+(?:(?:alpha|beta)[0-9]+)?\.[a-z0-9.-]*/([a-z0-9](?:[-a-z0-9.]*[a-z0-9])?) failed\b`)

// clusterScopedKinds are built-in kinds without a namespace: their
// ObjectRef's name may hold dots that are no namespace's.
var clusterScopedKinds = map[string]bool{"Namespace": true, "Node": true, "PersistentVolume": true, "StorageClass": true,
	"CustomResourceDefinition": true, "APIService": true, "PriorityClass": true, "IngressClass": true, "RuntimeClass": true,
	"CSIDriver": true, "CSINode": true, "ValidatingWebhookConfiguration": true, "MutatingWebhookConfiguration": true}

// objectRefKey puts on r the key and the error of msg's kube-rs failure
// clause, and on f the controller a tracing field names
// (controller.name="…", stackable-operator's); false when msg has none.
// A namespace is a DNS label: the last dot of NAME.NAMESPACE is the one.
func (f *fields) objectRefKey(msg string, r *Record) bool {
	m := objectRefFailed.FindStringSubmatchIndex(msg)
	if m == nil {
		return false
	}
	kind, ref := msg[m[2]:m[3]], msg[m[4]:m[5]]
	r.Namespace, r.Name = "", ref
	if i := strings.LastIndexByte(ref, '.'); i > 0 && !clusterScopedKinds[kind] && !strings.HasPrefix(kind, "Cluster") {
		r.Namespace, r.Name = ref[i+1:], ref[:i]
	}
	if r.Error == "" {
		// The clause is the error, up to the fields tracing writes after
		// an error value (its causes, error.sources=[…]).
		e, _, _ := strings.Cut(msg[m[0]:], " error.sources=")
		r.Error = strings.TrimSpace(e)
	}
	if f.controller == "" {
		if _, v, ok := strings.Cut(msg, ` controller.name="`); ok {
			f.controller, _, _ = strings.Cut(v, `"`)
		}
	}
	return true
}
