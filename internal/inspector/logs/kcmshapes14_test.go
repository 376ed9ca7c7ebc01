package logs

import "testing"

// TestKCMShapes14: shapes of kube-controller-manager's handlers read from
// batch14 (run here): a cluster-scoped key opening "KEY failed with : ERR"
// when it is a name with a dash or a dot (the clusterrole aggregation
// controller), never the constant item "key" nor a word; "Error VERBing
// …, retrying" with the key in key= (the EndpointSlice mirroring
// controller), not without a key field; "PV NAME failed with : ERR" (PV
// protection), but not the PVC protection's reversed "PVC NAME/NS" (no
// key rather than a wrong one); an E-level line whose err is a dialect's
// handler line (node IPAM's "error syncing 'edge-c': …, requeuing").
func TestKCMShapes14(t *testing.T) {
	for name, tc := range map[string]struct {
		line, key string
	}{
		"aggregation":   {`E1207 06:26:45.326489    1398 clusterroleaggregation_controller.go:215] "Unhandled Error" err="monitoring-view failed with : clusterroles.rbac.authorization.k8s.io \"monitoring-view\" is forbidden" logger="UnhandledError"`, "monitoring-view"},
		"dotted name":   {`E1207 06:26:45.326489    1398 controller.go:215] "Unhandled Error" err="v1beta1.metrics.k8s.io failed with: no endpoints" logger="UnhandledError"`, "v1beta1.metrics.k8s.io"},
		"item key":      {`E1207 06:26:45.326489    1398 configmap_cafile_content.go:243] "Unhandled Error" err="key failed with : missing content for CA bundle" logger="UnhandledError"`, ""},
		"a word":        {`E1207 06:26:45.326489    1398 worker.go:215] "Unhandled Error" err="request failed with : EOF" logger="UnhandledError"`, ""},
		"mirroring":     {`I1207 06:26:45.376031    1398 endpointslicemirroring_controller.go:278] "Error mirroring EndpointSlices for Endpoints, retrying" key="lab/legacy-db" err="failed to create EndpointSlice"`, "lab/legacy-db"},
		"pv protection": {`E1207 06:32:57.599887    6538 pv_protection_controller.go:126] "Unhandled Error" err="PV nfs-archive-02 failed with : persistentvolumes \"nfs-archive-02\" is forbidden" logger="UnhandledError"`, "nfs-archive-02"},
		"pvc reversed":  {`E1207 06:32:57.560652    6538 pvc_protection_controller.go:245] "Unhandled Error" err="PVC audit-log-0/vault failed with: persistentvolumeclaims \"audit-log-0\" is forbidden" logger="UnhandledError"`, ""},
		"node ipam":     {`E1207 06:32:57.117561    6538 range_allocator.go:257] "Error processing node work item" err="error syncing 'edge-c': failed to allocate cidr, requeuing"`, "edge-c"},
		"ipam at info":  {`I1207 06:32:57.117561    6538 range_allocator.go:257] "Error processing node work item" err="error syncing 'edge-c': failed to allocate cidr, requeuing"`, ""},
		"no key field":  {`I1207 06:26:45.376031    1398 reflector.go:278] "Error watching resources, retrying" err="connection refused"`, ""},
	} {
		t.Run(name, func(t *testing.T) {
			var said []LineReading
			s := readKeyAfter(t, tc.line+"\n", &said)
			_, keys := s.views("")
			switch {
			case tc.key == "" && len(keys) != 0:
				t.Errorf("read key %q, want none", keys[0].Key)
			case tc.key != "" && (len(keys) != 1 || keys[0].Key != tc.key || keys[0].TotalFailures != 1):
				t.Errorf("read %+v, want one failure of %s", keys, tc.key)
			}
		})
	}
}
