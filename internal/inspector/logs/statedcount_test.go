package logs

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
	"time"

	clocktesting "k8s.io/utils/clock/testing"
)

// TestStatedFailureCount: a failure count a line states is the key's
// count. The CSI provisioner logs "Retrying syncing claim KEY, failure N"
// (NumRequeues, before AddRateLimited) and then HandleError's "error
// syncing claim KEY: ERR": N earlier failures, so N+1 with this one, and
// the limiter's delay 5ms·2^N (batch 3's 79, verbatim); its structured
// form states failures=0 (80). The count goes to the failure of the same
// attempt only: a failure more than a second later, or a number inside
// the error, is not it.
func TestStatedFailureCount(t *testing.T) {
	read := func(t *testing.T, log string) *Store {
		t.Helper()
		s := NewStore(Options{Clock: clocktesting.NewFakePassiveClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))})
		if _, _, err := s.Read(context.Background(), strings.NewReader(log)); err != nil {
			t.Fatal(err)
		}
		return s
	}
	batch3 := func(t *testing.T, name string) string {
		raw, err := os.ReadFile("testdata/batch3/" + name)
		if err != nil {
			t.Fatal(err)
		}
		return string(raw)
	}
	for _, tt := range []struct {
		name, log       string
		key             string
		failures, total int
		delay           time.Duration
	}{
		{"failure 16", batch3(t, "79-csi-provisioner-klog-retrying-failure-16.log"), "bd1cb869-b9d5-4e11-94b3-88491da78050", 17, 1, 5 * time.Millisecond << 16},
		{"failures=0", batch3(t, "80-csi-provisioner-structured-unhandled-two-claims.log"), "79b3803f-2e6d-4111-b7d7-502db8393eb9", 1, 1, 5 * time.Millisecond},
		{"the failure two seconds after the count", strings.Join([]string{
			`W1016 03:22:56.546337       1 controller.go:961] Retrying syncing claim "bd1cb869-b9d5-4e11-94b3-88491da78050", failure 16`,
			`E1016 03:22:58.546363       1 controller.go:984] error syncing claim "bd1cb869-b9d5-4e11-94b3-88491da78050": failed to provision volume`,
		}, "\n") + "\n", "bd1cb869-b9d5-4e11-94b3-88491da78050", 1, 1, 5 * time.Millisecond},
		{"a count inside the error", `E1016 03:22:58.546363       1 controller.go:984] error syncing claim "bd1cb869-b9d5-4e11-94b3-88491da78050": rpc error: failure 3 of 5 replicas` + "\n",
			"bd1cb869-b9d5-4e11-94b3-88491da78050", 1, 1, 5 * time.Millisecond},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := read(t, tt.log)
			_, keys := s.views("")
			for _, k := range keys {
				if k.Key != tt.key {
					continue
				}
				if k.Failures != tt.failures || k.TotalFailures != tt.total || k.Delay.Duration != tt.delay {
					t.Errorf("failures %d (lines %d), delay %v; want %d (lines %d), %v", k.Failures, k.TotalFailures, k.Delay.Duration, tt.failures, tt.total, tt.delay)
				}
				return
			}
			t.Fatalf("%s not read; keys %v", tt.key, keys)
		})
	}
}

// TestStatedFailureCountExplained: --explain-lines says what the count
// line was read as.
func TestStatedFailureCountExplained(t *testing.T) {
	raw, err := os.ReadFile("testdata/batch3/79-csi-provisioner-klog-retrying-failure-16.log")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	s := NewStore(Options{Clock: clocktesting.NewFakePassiveClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)),
		ExplainLines: func(lr LineReading) { got = append(got, lr.Meaning) }})
	if _, _, err := s.Read(context.Background(), bytes.NewReader(raw)); err != nil {
		t.Fatal(err)
	}
	all := strings.Join(got, "\n")
	for _, want := range []string{"the failure count stated beside the retry (17 with this failure)", "failure, the key's failure 17 (stated)"} {
		if !strings.Contains(all, want) {
			t.Errorf("readings %q, want one with %q", all, want)
		}
	}
}
