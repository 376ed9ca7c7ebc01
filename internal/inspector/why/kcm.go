package why

import (
	"fmt"
	"slices"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// kcmController is what one of kube-controller-manager's controllers does,
// read from its source (k8s.io/kubernetes pkg/controller/...): the kinds
// whose changes enqueue a key (its informers' event handlers), and how it
// retries a key that failed.
type kcmController struct {
	// Name is its name in --controllers and its logger= field.
	Name string
	// Watches are the kinds whose informers' handlers enqueue the key.
	Watches []schema.GroupKind
	// Base and Cap are its queue's per-item exponential backoff
	// (Base·2^(failures-1), at most Cap).
	Base, Cap time.Duration
	// Period is a re-check of every key on a timer, whatever it watches
	// (zero when none shorter than the informers' 12h resync).
	Period time.Duration
	// Source is where this was read.
	Source string
}

var (
	gkPod        = schema.GroupKind{Kind: "Pod"}
	gkReplicaSet = schema.GroupKind{Group: "apps", Kind: "ReplicaSet"}
	gkRC         = schema.GroupKind{Kind: "ReplicationController"}
	gkDeployment = schema.GroupKind{Group: "apps", Kind: "Deployment"}
	gkJob        = schema.GroupKind{Group: "batch", Kind: "Job"}
	gkHPA        = schema.GroupKind{Group: "autoscaling", Kind: "HorizontalPodAutoscaler"}
	gkPVC        = schema.GroupKind{Kind: "PersistentVolumeClaim"}
	gkPV         = schema.GroupKind{Kind: "PersistentVolume"}
)

// defaultLimiter is client-go's DefaultTypedControllerRateLimiter:
// ItemExponentialFailureRateLimiter(5ms, 1000s) beside a 10 qps bucket.
const defaultBase, defaultCap = 5 * time.Millisecond, 1000 * time.Second

// kcmControllers are kube-controller-manager's controllers by the kind
// they reconcile, as read in k8s.io/kubernetes v1.37.2 (names from
// cmd/kube-controller-manager/names). A kind not here is said as unknown,
// never guessed.
var kcmControllers = map[schema.GroupKind]kcmController{
	gkReplicaSet: {Name: "replicaset-controller", Watches: []schema.GroupKind{gkReplicaSet, gkPod}, Base: defaultBase, Cap: defaultCap,
		Source: "pkg/controller/replicaset/replica_set.go NewBaseController: informers on ReplicaSets and Pods; DefaultTypedControllerRateLimiter"},
	// The ReplicationController controller is the ReplicaSet one's code
	// (pkg/controller/replication: NewBaseController with RC adapters).
	gkRC: {Name: "replicationcontroller-controller", Watches: []schema.GroupKind{gkRC, gkPod}, Base: defaultBase, Cap: defaultCap,
		Source: "pkg/controller/replication/replication_controller.go: the replicaset controller over ReplicationControllers and Pods"},
	gkDeployment: {Name: "deployment-controller", Watches: []schema.GroupKind{gkDeployment, gkReplicaSet, gkPod}, Base: defaultBase, Cap: defaultCap,
		Source: "pkg/controller/deployment/deployment_controller.go NewDeploymentController: informers on Deployments, ReplicaSets, Pods"},
	gkJob: {Name: "job-controller", Watches: []schema.GroupKind{gkJob, gkPod}, Base: time.Second, Cap: time.Minute,
		Source: "pkg/controller/job/job_controller.go: informers on Jobs and Pods; queue ItemExponentialFailureRateLimiter(DefaultJobApiBackOff 1s, MaxJobApiBackOff 1m)"},
	gkHPA: {Name: "horizontal-pod-autoscaler-controller", Watches: []schema.GroupKind{gkHPA}, Period: 15 * time.Second,
		Source: "pkg/controller/podautoscaler/horizontal.go: HPAs re-queued every --horizontal-pod-autoscaler-sync-period (15s)"},
	{Kind: "Namespace"}: {Name: "namespace-controller", Watches: []schema.GroupKind{{Kind: "Namespace"}}, Base: 5 * time.Millisecond, Cap: time.Minute,
		Source: "pkg/controller/namespace/namespace_controller.go: an informer on Namespaces; nsControllerRateLimiter (5ms..60s)"},
	gkPVC: {Name: "persistentvolume-binder-controller", Watches: []schema.GroupKind{gkPVC, gkPV}, Period: 15 * time.Second,
		Source: "pkg/controller/volume/persistentvolume/pv_controller_base.go: claims and volumes resynced every --pvclaimbinder-sync-period (15s)"},
}

// kcmManager is the field manager kube-controller-manager writes status as.
const kcmManager = "kube-controller-manager"

// watches says whether c's informers enqueue its keys on a change to gk:
// "yes" or "no".
func (c kcmController) watches(gk schema.GroupKind) string {
	if slices.Contains(c.Watches, gk) {
		return "yes"
	}
	return "no"
}

// delayAfter is c's queue delay after its n-th consecutive failure.
func (c kcmController) delayAfter(n int) time.Duration {
	if c.Base == 0 || n < 1 {
		return 0
	}
	d := c.Base
	for i := 1; i < n && d < c.Cap; i++ {
		d *= 2
	}
	return min(d, c.Cap)
}

// kcmName renames the controller a kube-controller-manager log names after
// its source file (replica_set.go serves both the ReplicaSet and the
// ReplicationController controllers; the failure lines carry
// logger="UnhandledError") to the controller's own name, which the kind
// tells apart: what --controllers and a user know.
func kcmName(b *Backoff, gk schema.GroupKind, o Ownership) {
	ctl, ok := kcmControllers[gk]
	if b == nil || b.Source != SourceLogs || !ok || b.Controller == ctl.Name ||
		!slices.ContainsFunc(o.StatusManagers, func(c Change) bool { return c.Manager == kcmManager }) {
		return
	}
	if b.Controller != "" {
		note := fmt.Sprintf("the log names it %s", b.Controller)
		if b.Note != "" {
			note = b.Note + "; " + note
		}
		b.Note = note
	}
	b.Controller = ctl.Name
	if b.Key != nil {
		b.Key.Controller = ctl.Name
	}
}

// isKCM says whether a's object is reconciled by one of kube-controller-
// manager's controllers this table knows.
func isKCM(a *Answer) bool {
	_, ok := kcmControllers[a.Object.groupKind()]
	return ok && slices.ContainsFunc(a.Ownership.StatusManagers, func(c Change) bool { return c.Manager == kcmManager })
}
