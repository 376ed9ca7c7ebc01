package kick

import "k8s.io/apimachinery/pkg/runtime/schema"

// kube-controller-manager's controllers say nothing of the kind they
// reconcile in their log: the kind is known from their names, which the
// log reader gives them (cmd/kube-controller-manager/names), and from
// their source. A kick needs it; a controller not here is not guessed.

// kcmQueue is what a kick needs to know of one of kube-controller-
// manager's controllers, read in k8s.io/kubernetes v1.37.2.
type kcmQueue struct {
	// Kinds are the kinds of the objects its keys name. Two when the name
	// does not tell: the log reader's "replicaset or replicationcontroller"
	// (replica_set.go serves both controllers and its failure line says
	// neither), or a queue of claims (NAMESPACE/NAME) and volumes (NAME).
	Kinds []schema.GroupKind
	// Deaf says why an annotation's change does not retry a key sooner,
	// and what does: empty when its informer enqueues the key on any
	// update of the object.
	Deaf string
	// Source is the file, and Evidence a line of it that shows the update
	// handler: TestKCMQueuesAgainstSource finds it there.
	Source, Evidence string
}

var (
	gkReplicaSet  = schema.GroupKind{Group: "apps", Kind: "ReplicaSet"}
	gkRC          = schema.GroupKind{Kind: "ReplicationController"}
	gkNamespace   = schema.GroupKind{Kind: "Namespace"}
	gkJob         = schema.GroupKind{Group: "batch", Kind: "Job"}
	gkService     = schema.GroupKind{Kind: "Service"}
	gkClaim       = schema.GroupKind{Kind: "PersistentVolumeClaim"}
	gkVolume      = schema.GroupKind{Kind: "PersistentVolume"}
	kindsOfRSCode = []schema.GroupKind{gkReplicaSet, gkRC}
)

// kcmQueues are kube-controller-manager's controllers whose keys name an
// object, by the names the log reader gives them.
var kcmQueues = map[string]kcmQueue{
	"replicaset or replicationcontroller": {Kinds: kindsOfRSCode,
		Source: "pkg/controller/replicaset/replica_set.go", Evidence: "rsc.enqueueRS(curRS)"},
	"replicaset-controller": {Kinds: []schema.GroupKind{gkReplicaSet},
		Source: "pkg/controller/replicaset/replica_set.go", Evidence: "rsc.enqueueRS(curRS)"},
	"replicationcontroller-controller": {Kinds: []schema.GroupKind{gkRC},
		Source: "pkg/controller/replication/replication_controller.go", Evidence: "*replicaset.NewBaseController(logger, informerAdapter{rcInformer}"},
	"deployment-controller": {Kinds: []schema.GroupKind{{Group: "apps", Kind: "Deployment"}},
		Source: "pkg/controller/deployment/deployment_controller.go", Evidence: "dc.enqueueDeployment(curD)"},
	"namespace-controller": {Kinds: []schema.GroupKind{gkNamespace},
		Source: "pkg/controller/namespace/namespace_controller.go", Evidence: "namespaceController.enqueueNamespace(ctx, namespace)"},
	"resourcequota-controller": {Kinds: []schema.GroupKind{{Kind: "ResourceQuota"}},
		Deaf:   "it enqueues a ResourceQuota on a change to spec.hard only; it retries each quota at its full resync, every --resource-quota-sync-period (5m by default)",
		Source: "pkg/controller/resourcequota/resource_quota_controller.go", Evidence: "if quota.Equals(oldResourceQuota.Spec.Hard, curResourceQuota.Spec.Hard) {"},
	"job-controller": {Kinds: []schema.GroupKind{gkJob},
		Source: "pkg/controller/job/job_controller.go", Evidence: "jm.enqueueSyncJobBatched(logger, curJob)"},
	"cronjob-controller": {Kinds: []schema.GroupKind{{Group: "batch", Kind: "CronJob"}},
		Source: "pkg/controller/cronjob/cronjob_controllerv2.go", Evidence: "jm.enqueueController(curr)"},
	"daemonset-controller": {Kinds: []schema.GroupKind{{Group: "apps", Kind: "DaemonSet"}},
		Source: "pkg/controller/daemon/daemon_controller.go", Evidence: "dsc.enqueueDaemonSet(curDS)"},
	"statefulset-controller": {Kinds: []schema.GroupKind{{Group: "apps", Kind: "StatefulSet"}},
		Source: "pkg/controller/statefulset/stateful_set.go", Evidence: "ssc.enqueueStatefulSet(logger, cur)"},
	"horizontal-pod-autoscaler-controller": {Kinds: []schema.GroupKind{{Group: "autoscaling", Kind: "HorizontalPodAutoscaler"}},
		Deaf:   "an update that leaves the generation is queued rate-limited, at its fixed interval; it retries each HPA every --horizontal-pod-autoscaler-sync-period (15s by default) anyway",
		Source: "pkg/controller/podautoscaler/horizontal.go", Evidence: "a.enqueueRateLimited(curHPA)"},
	"persistentvolume-binder-controller": {Kinds: []schema.GroupKind{gkClaim, gkVolume},
		Source: "pkg/controller/volume/persistentvolume/pv_controller_base.go", Evidence: "controller.enqueueWork(ctx, controller.claimQueue, newObj)"},
	// Its keys are namespaces: it makes each one's default ServiceAccount.
	"serviceaccount-controller": {Kinds: []schema.GroupKind{gkNamespace},
		Source: "pkg/controller/serviceaccount/serviceaccounts_controller.go", Evidence: "c.queue.Add(newNamespace.Name)"},
	"endpoints-controller": {Kinds: []schema.GroupKind{gkService},
		Source: "pkg/controller/endpoint/endpoints_controller.go", Evidence: "e.onServiceUpdate(cur)"},
	"endpointslice-controller": {Kinds: []schema.GroupKind{gkService},
		Source: "pkg/controller/endpointslice/endpointslice_controller.go", Evidence: "c.onServiceUpdate(cur)"},
	"disruption-controller": {Kinds: []schema.GroupKind{{Group: "policy", Kind: "PodDisruptionBudget"}},
		Source: "pkg/controller/disruption/disruption.go", Evidence: "dc.enqueuePdb(logger, pdb)"},
	"ttl-after-finished-controller": {Kinds: []schema.GroupKind{gkJob},
		Source: "pkg/controller/ttlafterfinished/ttlafterfinished_controller.go", Evidence: "tc.enqueue(logger, job)"},
	"persistentvolumeclaim-protection-controller": {Kinds: []schema.GroupKind{gkClaim},
		Source: "pkg/controller/volume/pvcprotection/pvc_protection_controller.go", Evidence: "c.queue.Add(key)"},
	"persistentvolume-protection-controller": {Kinds: []schema.GroupKind{gkVolume},
		Source: "pkg/controller/volume/pvprotection/pv_protection_controller.go", Evidence: "c.queue.Add(pv.Name)"},
}

// KCMKinds are the kinds whose objects the keys of kube-controller-
// manager's controller name (as a log names it), and, when an annotation's
// change does not make it retry sooner, why (deaf). ok is false for a name
// it does not know. Several kinds: Resolve tells which a key is.
func KCMKinds(controller string) (kinds []schema.GroupKind, deaf string, ok bool) {
	q, ok := kcmQueues[controller]
	return q.Kinds, q.Deaf, ok
}
