package logs

import (
	"bytes"
	"context"
	"os"
	"testing"
	"time"

	clocktesting "k8s.io/utils/clock/testing"
)

// TestKCMProvisioningFailure: kube-controller-manager's PersistentVolume
// binder logs a claim it cannot provision with the key only in a PVC=
// field (testdata/kcm/pvc-binder-v4.log, a real run); the claim is read
// under the binder's own name with both failures and the error, counted
// from the two E lines by hand. Before key: field, no line of it was read.
func TestKCMProvisioningFailure(t *testing.T) {
	raw, err := os.ReadFile("testdata/kcm/pvc-binder-v4.log")
	if err != nil {
		t.Fatal(err)
	}
	s := NewStore(Options{Clock: clocktesting.NewFakePassiveClock(time.Date(2026, 12, 6, 12, 19, 0, 0, time.UTC))})
	if _, _, err := s.Read(context.Background(), bytes.NewReader(raw)); err != nil {
		t.Fatal(err)
	}
	k, err := s.Key("persistentvolume-binder-controller", "missing/data")
	if err != nil {
		t.Fatalf("%v; controllers %v", err, s.names())
	}
	if k.Failures != 2 || k.LastError == nil || k.LastError.Message != `storageclass.storage.k8s.io "fast" not found` ||
		!k.LastError.At.Equal(time.Date(2026, 12, 6, 12, 18, 41, 558878370, time.UTC)) {
		t.Errorf("missing/data: %d failures, last error %+v; want 2, storageclass.storage.k8s.io \"fast\" not found at 12:18:41.55887837", k.Failures, k.LastError)
	}
	if n := s.Len(); n != 1 {
		t.Errorf("%d keys; want the claim alone", n)
	}
}
