package logs

import "bytes"

// A reconciler's own failure line may name its object only by a namespace
// field and a field named after the object's kind, with no name field:
// numaflow's pipeline reconciler logs `log.Errorw("Reconcile error", …)`
// on a logger made `r.logger.With("namespace", ns).With("pipeline", name)`
// and returns the error (pkg/reconciler/pipeline/controller.go; its vertex,
// isbsvc and monovertex reconcilers alike), written as
// {"caller":"pipeline/controller.go:85","msg":"Reconcile error",
// "namespace":"ns","pipeline":"x",…} (batch25/2503). Which field is the
// object is said by the caller: a reconciler that lives in a package named
// after its kind, as most do (controllers/<kind>/, pkg/reconciler/<kind>/),
// logs from a file in that package, and the field named like the package
// is the object's name. A failure line of a dialect that finds no other
// key reads that namespace and name (dialectread.go); controller-runtime's
// and knative's own lines log from their package "controller", whose
// field is the controller's name, never read so. Only a zap caller is
// read (JSON's "caller", the console's caller column): klog writes a file
// without its directory.

// callerPkgOf is the directory of the file a zap caller names, without
// its path ("pipeline" of "pipeline/controller.go:85" or of
// "github.com/x/pkg/reconciler/pipeline/controller.go:85"); nil when the
// caller names no directory.
func callerPkgOf(caller []byte) []byte {
	if c := bytes.LastIndex(caller, []byte(".go:")); c >= 0 {
		caller = caller[:c]
	}
	slash := bytes.LastIndexByte(caller, '/')
	if slash <= 0 {
		return nil
	}
	dir := caller[:slash]
	return dir[bytes.LastIndexByte(dir, '/')+1:]
}

// noteCallerField keeps a field named like the caller's package, letter
// case aside, whose value is a name; two of different values are no key
// (callerFields counts them).
func (f *fields) noteCallerField(key, val []byte) {
	if len(f.callerPkg) < 3 || !bytes.EqualFold(key, f.callerPkg) || bytes.IndexByte(val, '/') >= 0 || !clusterName.Match(val) {
		return
	}
	if f.callerFields > 0 && string(val) == f.callerField {
		return
	}
	f.callerFields++
	f.callerField = string(val)
}
