package logs

import (
	"strings"
	"testing"
)

// TestInfoIdiomOfBatch6 pins the work-queue idiom said at info level
// (infoidiom.go), learnt from the training batch 6 (testdata/batch6,
// verbatim lines; README there for their sources), with lines of the same
// and of nearby shapes from other projects' issues, kept verbatim with
// their source:
//   - the message opens with "Error syncing", names the key (here by a
//     kind and a bare name the API error echoes in quotes) and states the
//     error: read;
//   - it opens with the failure and says it will retry, the key quoted:
//     read;
//   - a retry word alone, with no failure (a timed requeue), an opening
//     that names no key, a failure to do something else ("Error updating"),
//     a bare name the error does not echo, a count past its budget: not
//     read.
func TestInfoIdiomOfBatch6(t *testing.T) {
	mco := strings.Split(readTestdata(t, "testdata/batch6/104-mco-klog-error-syncing-machineconfigpool.log"), "\n")
	snap := strings.Split(readTestdata(t, "testdata/batch6/137-csi-snapshotter-klog-failed-to-sync-content-will-retry-host-pid.log"), "\n")
	for _, tt := range []struct {
		name, line                 string
		controller, key, errPrefix string // key "": not read
	}{
		{"Error syncing KIND NAME: ERR at info, the name echoed by the API error", mco[1],
			"render_controller", "nodeobservability", "Operation cannot be fulfilled on machineconfigpools"},
		{"Failed to sync KIND \"NAME\", will retry again: ERR at info", snap[0],
			"snapshot_controller_base", "snapcontent-f9fd1225-55ca-443c-a670-bab858d919fa", "failed to take snapshot of the volume"},
		// The same shape with a namespaced key, as kubermatic's cluster
		// controller writes it (its code, not a paste: https://github.com/kubermatic/kubermatic/pull/2484,
		// glog.V(0).Infof("Error syncing %v: %v", key, err)).
		{"Error syncing KEY: ERR at info", `I1204 10:00:00.000000       1 cluster_controller.go:447] Error syncing kube-system/cluster-x: Operation cannot be fulfilled on clusters.kubermatic.k8s.io "cluster-x": the object has been modified`,
			"cluster_controller", "kube-system/cluster-x", "Operation cannot be fulfilled"},
		// https://github.com/operator-framework/operator-lifecycle-manager/pull/748
		// (verbatim): a requeue said at info, no failure, no error.
		{"a retry word alone", `time="2019-03-12T13:43:21Z" level=info msg="retrying openshift-operators/another-csv-t8j44"`, "", "", ""},
		// https://github.com/equinor/radix-operator/pull/503 (verbatim,
		// level set to info): the idiom's opening, but no key in the message.
		{"the opening with no key", `time="2020-11-04T11:01:26Z" level=info msg="Error while syncing: Operation cannot be fulfilled on radixjobs.radix.equinor.com \"radix-pipeline-20201104110126-zxnmy\": the object has been modified; please apply your changes to the latest version and try again"`, "", "", ""},
		// https://github.com/devfile/devworkspace-operator/issues/900
		// (verbatim, one line): another verb at info, the key in fields.
		{"another verb at info", `{"level": "info","ts": 1659350938.3405712,"logger": "controllers.DevWorkspace","msg": "Error updating workspace status: Operation cannot be fulfilled on [devworkspaces.workspace.devfile.io](http://devworkspaces.workspace.devfile.io/) \"<workspace-name>\": the object has been modified; please apply your changes to the latest version and try again","Request.Namespace": "<namespace>","Request.Name": "<workspace-name>","devworkspace_id": "<workspace-id>"}`, "", "", ""},
		{"a bare word the error does not echo", `I0422 04:36:33.700779       1 render_controller.go:377] Error syncing pod sandbox: rpc error: code = Unknown`, "", "", ""},
		{"a count past its budget", `I0911 07:11:21.915665       1 controller.go:386] Error syncing ClusterServiceBroker nasty-broker (retry: 15/15): boom`, "", "", ""},
		{"a failure further in, not the opening", `I0422 04:36:33.700779       1 render_controller.go:377] Pool nodeobservability: error syncing "nodeobservability", will retry: boom`, "", "", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := wantLineRead(t, tt.line, tt.controller, tt.key, tt.errPrefix)
			if tt.key == "" {
				return
			}
			if !strings.Contains(r.Evidence, "at info level") {
				t.Errorf("evidence %q, want the info-level idiom's", r.Evidence)
			}
		})
	}
}
