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
// HandleError logs a key's failure: its dialect's controller-from files
// (dialects/builtin.yaml), for the lines another reader reads.
var kcmByFile = func() map[string]string {
	for _, d := range builtins {
		if d.Name == kcmDialect {
			return d.From.Files
		}
	}
	panic("the built-in dialects have no " + kcmDialect)
}()

// kcmController renames the controller named after a source file to
// kube-controller-manager's own name, when the line is one of
// kube-controller-manager's: its dialect read it (kcm), or its logger is
// client-go's UnhandledError, which kube-controller-manager's failures
// carry (the generic reader's lines, and a dialect's without files of
// its own). replica_set.go's failure line does not say which of its two
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
