package logs

import (
	"os"
	"strings"
	"testing"
	"time"
)

// TestUntimedInnerAndHandlerLineCountOnce reads virtual-kubelet's lines
// (batch16) untimed — dated after the reading clock, so their times are
// implausible and dropped (times.go), as a log whose lines carry no date
// is read: each attempt of the status queue's key is an E-level "Error
// processing pod status update" and then the "requeuing KEY due to failed
// sync" warning, one attempt, told by their order alone. The rule was
// written from 1600 and holds on 1601 and 1602; the pod-sync keys, one line
// per attempt, are not merged.
func TestUntimedInnerAndHandlerLineCountOnce(t *testing.T) {
	before := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC) // the lines are of 2026-12-07
	for _, tt := range []struct {
		file string
		want map[string]int
	}{
		{"1600-virtual-kubelet-logrus-status-update-denied-by-policy-missing-configmap-requeuing-burst.log",
			map[string]int{"ledger-audit/journal-writer": 10, "render/frame-encoder": 11}},
		{"1601-virtual-kubelet-logrus-missing-secret-two-new-pods-doubling-delays-steady.log",
			map[string]int{"ledger-audit/journal-writer": 4, "render/frame-encoder": 3, "render/thumbnailer": 14, "ledger-audit/checksum-verifier": 14}},
		{"1602-virtual-kubelet-logrus-recovery-delete-forgetting-uid-key-shutdown.log",
			map[string]int{"ledger-audit/journal-writer": 1, "render/thumbnailer": 1, "ledger-audit/checksum-verifier": 1}},
	} {
		raw, err := os.ReadFile("testdata/batch16/" + tt.file)
		if err != nil {
			t.Fatal(err)
		}
		s := readLog(t, before, strings.Split(strings.TrimSpace(string(raw)), "\n")...)
		_, keys := s.views("")
		got := map[string]int{}
		for _, k := range keys {
			got[k.Key] += k.TotalFailures
		}
		for k, n := range tt.want {
			if got[k] != n {
				t.Errorf("%s: %s %d failures, want %d", tt.file, k, got[k], n)
			}
		}
		if len(got) != len(tt.want) {
			t.Errorf("%s: keys %v, want %v", tt.file, got, tt.want)
		}
	}
}
