package logs

// kube-controller-manager's controllers log their failures through
// utilruntime.HandleError: logger="UnhandledError" (since 1.31) or none,
// and the source file, which is all that names the controller
// (replica_set.go:640). A user knows them by their own names, those of
// --controllers and of their other lines' logger= field
// (cmd/kube-controller-manager/names), and `why` names them so
// (internal/inspector/why's kcmControllers): the log reader names them so
// too.

// kcmDialect is the built-in dialect of kube-controller-manager's lines.
const kcmDialect = "kube-controller-manager"

// kcmAmbiguous is the name of a key failing in replica_set.go, which serves
// both the ReplicaSet and the ReplicationController controllers
// (pkg/controller/replication runs the replicaset controller's code), when
// nothing in the line tells which.
const kcmAmbiguous = "replicaset or replicationcontroller"

// kcmByFile are kube-controller-manager's controllers by the file whose
// HandleError logs a key's failure (k8s.io/kubernetes pkg/controller,
// v1.2x–v1.3x).
var kcmByFile = map[string]string{
	"replica_set":                 kcmAmbiguous,
	"replication_controller":      "replicationcontroller-controller",
	"deployment_controller":       "deployment-controller",
	"namespace_controller":        "namespace-controller",
	"resource_quota_controller":   "resourcequota-controller",
	"job_controller":              "job-controller",
	"cronjob_controllerv2":        "cronjob-controller",
	"daemon_controller":           "daemonset-controller",
	"stateful_set":                "statefulset-controller",
	"horizontal":                  "horizontal-pod-autoscaler-controller",
	"pv_controller_base":          "persistentvolume-binder-controller",
	"serviceaccounts_controller":  "serviceaccount-controller",
	"tokens_controller":           "serviceaccount-token-controller",
	"endpoints_controller":        "endpoints-controller",
	"endpointslice_controller":    "endpointslice-controller",
	"disruption":                  "disruption-controller",
	"garbagecollector":            "garbage-collector-controller",
	"ttlafterfinished_controller": "ttl-after-finished-controller",
	"pvc_protection_controller":   "persistentvolumeclaim-protection-controller",
	"pv_protection_controller":    "persistentvolume-protection-controller",
}

// kcmController renames the controller named after a source file to
// kube-controller-manager's own name, when the line is one of
// kube-controller-manager's: its dialect read it (kcm), or its logger is
// client-go's UnhandledError, which kube-controller-manager's failures
// carry. replica_set.go's failure line does not say which of its two
// controllers failed: kcmAmbiguous.
func (f *fields) kcmController(name string, kcm bool) string {
	if !kcm && f.logger != "UnhandledError" {
		return name
	}
	if n, ok := kcmByFile[name]; ok {
		return n
	}
	return name
}
