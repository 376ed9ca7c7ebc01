package logs

import "time"

// kube-controller-manager's controllers state how long each sync took on
// its deferred end line (V(4), finished.go): duration= in the replicaset
// (replica_set.go:759), deployment (deployment_controller.go:585),
// namespace (namespace_controller.go:182), resource quota
// (resource_quota_controller.go:347) and service account
// (serviceaccounts_controller.go:195) controllers, elapsed= in the job
// controller's (job_controller.go:920), read at k8s.io/kubernetes v1.37.2.
// The sync's attempt took it: describe's "Last reconcile: …, took" and
// the attempt's duration say it, where a log without a start line (V(5)
// "Reconciling", controller-runtime's) said "-". The statefulset and daemon
// set controllers name it time=, the name of a JSON line's own time: not
// read, and "-" stays. controller-runtime's "Reconcile successful" states
// none: its duration is from its "Reconciling" line (entry.reconciled).

// tookDuration is how long the line's sync took, as its field states it;
// zero when it states none, or not a positive duration.
func (f *fields) tookDuration() time.Duration { return positiveDuration(f.took) }
