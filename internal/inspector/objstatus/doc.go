// Package objstatus is the one rule for what an object says about its
// latest change: kstatus's word plus what kstatus does not read, and who
// changed the object and who writes its status, from managedFields. It does
// no I/O and imports nothing of this module, so that inspector (describe,
// the UI's key detail) and inspector/why (`kubectl backoff why`) judge an
// object alike.
//
//	v := objstatus.Judge(u) // u: the object, as the API server returned it
//	o := objstatus.OwnershipOf(u.GetManagedFields())
//	fmt.Println(objstatus.Line(v, o.SpecChange, ago))
//	// InProgress: generation 7, changed 12m0s ago by kubectl-client-side-apply; the controller has observed 6
//
// An object with no status whose kind always gets one from a controller (a
// CRD's status subresource, read by the caller from discovery and given to
// JudgeKind; a built-in such as a Deployment, by rule) is not reconciled
// yet, never Current; a kind with no status at all (a ConfigMap) is said
// to have none.
//
// Judge runs kstatus (sigs.k8s.io/cli-utils/pkg/kstatus/status) first,
// then, in order, the rules it does not read: Flux's
// status.observedGeneration -1 (never reconciled), a Crossplane resource's
// Synced=False (a failed or paused sync that Ready=True hides), a Ready condition
// observed at an older generation (stale), Cluster API v1beta2's
// RollingOut/ScalingUp/ScalingDown on kinds without Ready, and an Argo CD
// Application's sync and health. Each verdict keeps kstatus's own word and
// the evidence that decided it.
package objstatus
