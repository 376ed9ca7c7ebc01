package logs

import (
	"os"
	"testing"
	"time"
)

// A failure line that states its delay in words of its own (kube-controller-
// manager's service controller: "Retrying in 2m40s", from Azure/acs-engine#2151)
// is read as a delay the log states, with those words, not as a RequeueAfter.
func TestStatedDelayKeepsTheLogsWords(t *testing.T) {
	b, err := os.ReadFile("testdata/batch3/74-kcm-service-klog-retrying-in-stated.log")
	if err != nil {
		t.Fatal(err)
	}
	s := readLog(t, time.Date(2026, 2, 11, 6, 0, 0, 0, time.UTC), string(b))
	k := keyDetail(t, s, "service_controller", "kube-system/kube-dns")
	if k.DelaySource != "stated" || k.DelayWords != "Retrying in 2m40s" || k.Delay.Duration != 160*time.Second || k.Estimated {
		t.Errorf("delay %v from %q, words %q, estimated %v; want 2m40s stated as \"Retrying in 2m40s\", exact",
			k.Delay.Duration, k.DelaySource, k.DelayWords, k.Estimated)
	}
}

func TestStatedWords(t *testing.T) {
	for msg, want := range map[string]string{
		"Failed to process service ns/x. Retrying in 2m40s":    "Retrying in 2m40s",
		"Reconciliation failed after 21.4ms, next try in 1m0s": "next try in 1m0s",
		"sync failed (will retry in 30s":                       "will retry in 30s",
		"5s":                                                   "5s",
	} {
		if got := statedWords(msg, len(msg)); got != want {
			t.Errorf("statedWords(%q) = %q, want %q", msg, got, want)
		}
	}
}
