package objstatus

import (
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Kind is what an object's kind promises about its status, which the object
// alone cannot say: an object with no status is "not reconciled yet" when a
// controller always writes one, and simply status-less when its kind has
// none (a ConfigMap).
type Kind struct {
	// WritesStatus is set when a controller writes every object's status:
	// a custom kind with a status subresource (the CRD declares it, and its
	// controller is why it does), or a built-in whose controller always
	// writes one (WritesStatusBuiltin).
	WritesStatus bool
	// NoStatus is set when the kind has no status at all (no status
	// subresource, as discovery says, or a built-in known to have none).
	NoStatus bool
}

// builtinGroups are the API groups the API server itself serves: for their
// kinds a status subresource says nothing about a controller (Service has
// one and most Services never get a status).
var builtinGroups = map[string]bool{
	"": true, "apps": true, "batch": true, "policy": true, "autoscaling": true,
	"networking.k8s.io": true, "rbac.authorization.k8s.io": true, "storage.k8s.io": true,
	"apiregistration.k8s.io": true, "apiextensions.k8s.io": true, "admissionregistration.k8s.io": true,
	"coordination.k8s.io": true, "discovery.k8s.io": true, "events.k8s.io": true, "scheduling.k8s.io": true,
	"node.k8s.io": true, "certificates.k8s.io": true, "flowcontrol.apiserver.k8s.io": true,
	"resource.k8s.io": true, "internal.apiserver.k8s.io": true, "storagemigration.k8s.io": true,
}

// alwaysWritten are the built-ins whose kube-controller-manager controller
// writes a status on its first sync (the API server creates them with
// `status: {}`): one still without is one no controller has synced.
var alwaysWritten = map[schema.GroupKind]bool{
	{Group: "apps", Kind: "Deployment"}: true, {Group: "apps", Kind: "ReplicaSet"}: true,
	{Group: "apps", Kind: "StatefulSet"}: true, {Group: "apps", Kind: "DaemonSet"}: true,
	{Group: "", Kind: "ReplicationController"}: true, {Group: "batch", Kind: "Job"}: true,
	{Group: "policy", Kind: "PodDisruptionBudget"}:          true,
	{Group: "autoscaling", Kind: "HorizontalPodAutoscaler"}: true,
	{Group: "apiregistration.k8s.io", Kind: "APIService"}:   true,
}

// withoutStatus are built-ins that have no status at all.
var withoutStatus = map[schema.GroupKind]bool{
	{Kind: "ConfigMap"}: true, {Kind: "Secret"}: true, {Kind: "ServiceAccount"}: true, {Kind: "Endpoints"}: true,
	{Kind: "LimitRange"}: true, {Kind: "PodTemplate"}: true, {Kind: "Event"}: true,
	{Group: "rbac.authorization.k8s.io", Kind: "Role"}: true, {Group: "rbac.authorization.k8s.io", Kind: "RoleBinding"}: true,
	{Group: "rbac.authorization.k8s.io", Kind: "ClusterRole"}: true, {Group: "rbac.authorization.k8s.io", Kind: "ClusterRoleBinding"}: true,
	{Group: "storage.k8s.io", Kind: "StorageClass"}: true, {Group: "scheduling.k8s.io", Kind: "PriorityClass"}: true,
	{Group: "discovery.k8s.io", Kind: "EndpointSlice"}: true, {Group: "networking.k8s.io", Kind: "NetworkPolicy"}: true,
	{Group: "admissionregistration.k8s.io", Kind: "ValidatingWebhookConfiguration"}: true,
	{Group: "admissionregistration.k8s.io", Kind: "MutatingWebhookConfiguration"}:   true,
}

// Builtin reports whether gk's group is served by the API server itself.
func Builtin(gk schema.GroupKind) bool { return builtinGroups[gk.Group] }

// KindOf is what is known of gk without discovery: the built-ins' rules; a
// custom kind is unknown (the zero Kind) until its CRD is read (KindFrom).
func KindOf(gk schema.GroupKind) Kind {
	return Kind{WritesStatus: alwaysWritten[gk], NoStatus: withoutStatus[gk]}
}

// KindFrom is gk's Kind given whether discovery lists a status subresource
// for it: for a custom kind that decides both ways; a built-in keeps its
// rules, the subresource saying nothing of a controller.
func KindFrom(gk schema.GroupKind, statusSubresource bool) Kind {
	if Builtin(gk) {
		k := KindOf(gk)
		k.NoStatus = k.NoStatus || (!statusSubresource && !k.WritesStatus)
		return k
	}
	return Kind{WritesStatus: statusSubresource}
}

// hasNoStatus reports an object without status, or with an empty one (what
// the API server stores for a kind whose controller has not written it).
func hasNoStatus(u *unstructured.Unstructured) bool {
	st, ok := u.Object["status"]
	if !ok || st == nil {
		return true
	}
	m, isMap := st.(map[string]any)
	return isMap && len(m) == 0
}
