package logs

import "testing"

// TestWarningAfterItsFailureLine: controller-runtime logs "Warning:
// Reconciler returned both …" before its "Reconciler error" of the same
// reconcileID, but a log shipper may write them the other way round
// (dragonflydb/dragonfly-operator#306, ihor-hrytskiv's paste: the error,
// then the warning of the same reconcileID). The warning is that attempt's,
// not a second failure whose line is missing; a warning of another
// reconcileID still is one.
func TestWarningAfterItsFailureLine(t *testing.T) {
	const pod = `{"controller": "DragonflyPodLifecycle", "controllerGroup": "", "controllerKind": "Pod", "Pod": {"name":"-backend-dragonfly-main-0","namespace":"-backend-main"}, "namespace": "-backend-main", "name": "-backend-dragonfly-main-0", "reconcileID": "`
	const warning = "2025-03-03T08:27:22Z\tINFO\tWarning: Reconciler returned both a non-zero result and a non-nil error. The result will always be ignored if the error is non-nil and the non-nil error causes reqeueuing with exponential backoff. For more details, see: https://pkg.go.dev/sigs.k8s.io/controller-runtime/pkg/reconcile#Reconciler\t" + pod
	failure := "2025-03-03T08:27:22Z\tERROR\tReconciler error\t" + pod + `679fb5b2-1a81-4dbb-b638-f946557aea41", "error": "error running SLAVE OF command: ERR could not connect to master: Connection refused"}` + "\n"
	for _, tt := range []struct {
		name, log string
		failures  int
	}{
		{"same reconcileID", failure + warning + `679fb5b2-1a81-4dbb-b638-f946557aea41"}` + "\n", 1},
		{"another reconcileID", failure + warning + `7c4a9f0e-0000-4000-8000-000000000001"}` + "\n", 2},
	} {
		keys := readExcerpt(t, []byte(tt.log))
		if len(keys) != 1 || keys[0].Key != "-backend-main/-backend-dragonfly-main-0" || keys[0].Failures != tt.failures {
			t.Errorf("%s: got %+v, want -backend-main/-backend-dragonfly-main-0 with %d failures", tt.name, keys, tt.failures)
		}
	}
}
