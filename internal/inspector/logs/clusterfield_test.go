package logs

import (
	"slices"
	"strings"
	"testing"
)

// TestClusterKindField: a bare name in a field named after a
// cluster-scoped kind is the line's key when no namespace/name field is
// (clusterfield.go): kwok's "Failed to sync lease" with "node" (batch21's
// 2104, verbatim: the lease controller's failure, read by its opening
// words), one key per node. With a pod's namespace/name beside it the line
// is the pod's; two such fields of different names are no key.
func TestClusterKindField(t *testing.T) {
	log := readTestdata(t, "testdata/batch21/2104-kwok-slog-json-debug-lease-create-unavailable-three-nodes-retried-at-renew-interval.log")
	first := strings.Split(log, "\n")[0]
	if !strings.Contains(first, `"msg":"Failed to sync lease"`) || !strings.HasSuffix(first, `"node":"sim-rack2-n2"}`) {
		t.Fatalf("2104's first line is not the lease failure of sim-rack2-n2: %s", first)
	}
	s := readLog(t, corpusClock, log)
	_, keys := s.views("")
	var got []string
	for _, k := range keys {
		got = append(got, k.Key)
		if k.TotalFailures != 1 || k.LastError == nil || !strings.HasPrefix(k.LastError.Message, "failed to create lease after retrying: the server is currently unable") {
			t.Errorf("%s ×%d %+v, want one lease failure", k.Key, k.TotalFailures, k.LastError)
		}
	}
	if slices.Sort(got); strings.Join(got, " ") != "sim-rack2-n1 sim-rack2-n2 sim-rack2-n3" {
		t.Errorf("keys %v, want the three nodes", got)
	}
	for _, tt := range []struct{ name, line, key string }{
		{"the lease line alone", first, "sim-rack2-n2"},
		{"a pod beside its node", strings.Replace(first, `"node":`, `"pod":"ingest/collector-6f8d9-2kqwm","node":`, 1), "ingest/collector-6f8d9-2kqwm"},
		{"two cluster-scoped names", strings.Replace(first, `"node":`, `"persistentvolume":"pv-archive-1","node":`, 1), ""},
		{"a field of no cluster-scoped kind", strings.Replace(first, `"node":`, `"holder":`, 1), ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, keys := readLog(t, corpusClock, tt.line).views("")
			switch {
			case tt.key == "" && len(keys) != 0:
				t.Errorf("read %s, want no key", keys[0].Key)
			case tt.key != "" && (len(keys) != 1 || keys[0].Key != tt.key):
				t.Errorf("read %v, want %s", keys, tt.key)
			}
		})
	}
}
