package logs

import "testing"

// TestProcessIdiomAtInfo: the external-attacher's "Error processing KEY:
// ERR" at V(2) info, then AddRateLimited (csi_handler.go's
// SyncNewOrUpdatedVolumeAttachment), read on its real lines — batch 9's 912
// (https://github.com/digitalocean/csi-digitalocean/issues/24) and batch
// 10's 231 (https://github.com/equinixmetal-archive/csi-packet/issues/48),
// verbatim — and on the same words with the key after a kind word, as a
// copy of client-go's work-queue example writes them. The same words at
// info that name no key right after them, or no error right after the
// key, are not read.
func TestProcessIdiomAtInfo(t *testing.T) {
	const do = `I0514 16:40:58.947161       1 csi_handler.go:86] Error processing "csi-417b839bb106638d3dd7e7e00cf008a9ac8df376d24ae3e2076c7270385860f3": failed to attach: rpc error: code = Unavailable desc = all SubConns are in TransientFailure`
	const packet = `I1008 09:50:56.995491       1 csi_handler.go:99] Error processing "csi-38853ef68f955e2132a9ba0e35976886f648e07c7b847a1aefa3110353411aaa": failed to attach: rpc error: code = Unknown desc = error attempting to attach 51e533b3-a38e-4ebf-917f-6f90920c1342 to 2b764f26-a703-4415-a294-142be3c72e97, POST https://api.packet.net/storage/51e533b3-a38e-4ebf-917f-6f90920c1342/attachments: 422 Instance is already attached to this volume`
	for _, tt := range []struct {
		name, line, controller, key, errPrefix string // key "": not read
	}{
		{"csi-digitalocean's attacher", do, "csi_handler", "csi-417b839bb106638d3dd7e7e00cf008a9ac8df376d24ae3e2076c7270385860f3", "failed to attach: rpc error: code = Unavailable"},
		{"csi-packet's attacher", packet, "csi_handler", "csi-38853ef68f955e2132a9ba0e35976886f648e07c7b847a1aefa3110353411aaa", "failed to attach: rpc error: code = Unknown"},
		{"a kind word before the key", `I0102 10:00:00.000000       1 main.go:90] Error processing pod default/web-0: pods "web-0" not found`, "main", "default/web-0", `pods "web-0" not found`},
		{"no key", `I0102 10:00:00.000000       1 worker.go:62] Error processing SFM job: connection reset`, "", "", ""},
		{"a watch event's, no key", `I0102 10:00:00.000000       1 watcher.go:40] Error processing networkPolicyEvent : boom`, "", "", ""},
		{"the key further in", `I0102 10:00:00.000000       1 p2p.go:12] Error processing P2P transaction for "tx-0001": boom`, "", "", ""},
		{"no error after the key", `I0102 10:00:00.000000       1 sync.go:12] Error processing "csi-0001" skipped, no driver: boom`, "", "", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			wantLineRead(t, tt.line, tt.controller, tt.key, tt.errPrefix)
		})
	}
	// The whole excerpts: one failure each, and 231's retry that finds the
	// volume attached ends no streak it can see (not terminal).
	wantOneKey(t, readTestdata(t, "testdata/batch9/912-csi-digitalocean-klog-external-attacher-error-processing-info-level.log"),
		oneKeyCase{key: "csi-417b839bb106638d3dd7e7e00cf008a9ac8df376d24ae3e2076c7270385860f3", errPrefix: "failed to attach: ", failures: 1})
	wantOneKey(t, readTestdata(t, "testdata/batch10/231-csi-attacher-klog-info-error-processing-va-then-recovered.log"),
		oneKeyCase{key: "csi-38853ef68f955e2132a9ba0e35976886f648e07c7b847a1aefa3110353411aaa", errPrefix: "failed to attach: ", failures: 1})
}
