package logs

import (
	"bytes"
	"context"
	"io"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// TestKCMFinishedSyncIsASuccess: kube-controller-manager logs each sync's
// end at V(4) ("Finished syncing", deferred in syncReplicaSet,
// replica_set.go:759), whatever the sync returned, and then the failure
// (replica_set.go:640) when it failed. testdata/kcm/replicaset-quota-
// raised-v4.log (a real run, every line naming q4/web) holds, counted by
// hand: 14 syncs of the ReplicaSet refused by the quota (22:44:40.372 to
// 22:45:21.618), each a "Finished syncing" then its failure; the quota
// raised, the sync at 22:46:03.060939 creates the pods and is followed by
// no failure (a success: Forget), the next (.061020) fails on a stale read
// (.061060), and the three after it end with no failure (.089476,
// .092424, 22:46:05.212784). So the key is settled: no failure since its
// success at 22:46:05.212784, the last error the stale read, 15 failures
// in all. The deployment's two conflicts ("Error syncing deployment",
// 22:44:40) are followed by successes too. Without the V(4) ends (the same
// lines at -v=2) the log shows no success and the ReplicaSet stays as its
// last failure left it.
func TestKCMFinishedSyncIsASuccess(t *testing.T) {
	raw, err := os.ReadFile("testdata/kcm/replicaset-quota-raised-v4.log")
	if err != nil {
		t.Fatal(err)
	}
	read := func(t *testing.T, raw []byte) *Store {
		s := NewStore(Options{Clock: clocktesting.NewFakePassiveClock(time.Date(2026, 12, 7, 22, 46, 10, 0, time.UTC))})
		if _, _, err := s.Read(context.Background(), bytes.NewReader(raw)); err != nil {
			t.Fatal(err)
		}
		return s
	}
	t.Run("v4", func(t *testing.T) {
		s := read(t, raw)
		rs, err := s.Key("replicaset-controller", "q4/web-5fc9f4bf66")
		if err != nil {
			t.Fatalf("%v; controllers %v", err, s.names())
		}
		success := time.Date(2026, 12, 7, 22, 46, 5, 212784000, time.UTC)
		if rs.Failures != 0 || !rs.LastSuccessAt.Equal(success) || rs.TotalFailures != 15 {
			t.Errorf("replicaset: %d failures since a success at %v, %d in all (state %s); want 0 since %v, 15", rs.Failures, rs.LastSuccessAt, rs.TotalFailures, rs.State, success)
		}
		if rs.LastError == nil || !bytes.HasPrefix([]byte(rs.LastError.Message), []byte("read version: 1042")) {
			t.Errorf("replicaset: last error %+v; want the stale read's", rs.LastError)
		}
		if rs.State == api.StateBackoff {
			t.Errorf("replicaset: state %s after its successes", rs.State)
		}
		d, err := s.Key("deployment-controller", "q4/web")
		if err != nil {
			t.Fatalf("%v; controllers %v", err, s.names())
		}
		if d.Failures != 0 || d.LastSuccessAt.IsZero() {
			t.Errorf("deployment: %d failures, last success %v; want 0 after a success", d.Failures, d.LastSuccessAt)
		}
	})
	t.Run("without the V(4) ends", func(t *testing.T) {
		var v2 []byte
		for _, l := range bytes.SplitAfter(raw, []byte("\n")) {
			if !bytes.Contains(l, []byte(`"Finished syncing`)) {
				v2 = append(v2, l...)
			}
		}
		s := read(t, v2)
		rs, err := s.Key("replicaset-controller", "q4/web-5fc9f4bf66")
		if err != nil {
			t.Fatalf("%v; controllers %v", err, s.names())
		}
		if !rs.LastSuccessAt.IsZero() || rs.Failures == 0 {
			t.Errorf("replicaset: %d failures, last success %v; want no success read from a log that shows none", rs.Failures, rs.LastSuccessAt)
		}
	})
}

// TestKCMFinishedHeldAcrossALiveView: in a live log a view may be asked for
// between a sync's end and its failure line (two batches of the stream):
// the end stays held for its attempt, so the failure that follows counts
// on the streak, not after a success. Lines from replicaset-quota-raised-
// v4.log: two failed syncs, the second's end read before a view.
func TestKCMFinishedHeldAcrossALiveView(t *testing.T) {
	raw, err := os.ReadFile("testdata/kcm/replicaset-quota-raised-v4.log")
	if err != nil {
		t.Fatal(err)
	}
	var ends, fails []string
	for _, l := range strings.Split(string(raw), "\n") {
		switch {
		case strings.Contains(l, `"Finished syncing" kind="ReplicaSet"`):
			ends = append(ends, l)
		case strings.Contains(l, `replica_set.go:640] "Unhandled Error"`):
			fails = append(fails, l)
		}
	}
	// The first two attempts: end, failure; end, then a view, then failure.
	batches := []string{ends[0] + "\n" + fails[0] + "\n" + ends[1] + "\n", fails[1] + "\n"}
	s := NewStore(Options{Live: true, Clock: clocktesting.NewFakePassiveClock(time.Date(2026, 12, 7, 22, 44, 41, 0, time.UTC))})
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() { _, _, err := s.Read(context.Background(), pr); done <- err }()
	for i, b := range batches {
		if _, err := io.WriteString(pw, b); err != nil {
			t.Fatal(err)
		}
		want := strings.Count(strings.Join(batches[:i+1], ""), "\n")
		deadline := time.Now().Add(30 * time.Second)
		for s.LogRead().Lines < want {
			if time.Now().After(deadline) {
				t.Fatalf("batch %d: %d lines read, want %d", i, s.LogRead().Lines, want)
			}
			runtime.Gosched()
		}
		s.Controllers() // a view, between the end and its failure
	}
	pw.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	k, err := s.Key(kcmAmbiguous, "q4/web-5fc9f4bf66") // a live log names it by "Starting controller" lines only
	if err != nil {
		t.Fatalf("%v; controllers %v", err, s.names())
	}
	if k.Failures != 2 || !k.LastSuccessAt.IsZero() {
		t.Errorf("%d consecutive failures, last success %v; want 2 and none: each end was its failed attempt's", k.Failures, k.LastSuccessAt)
	}
}
