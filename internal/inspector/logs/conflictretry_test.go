package logs

import (
	"bytes"
	"context"
	"os"
	"regexp"
	"testing"
	"time"

	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// TestConflictRetrySucceeded: the demo's conflicts controller
// (testdata/demo/conflicts.log, real controller-runtime lines) is refused
// a stale write once per key and generation, and the retry 5ms later
// succeeds, unlogged: every key's count is one, whatever the spacing of
// its conflicts (conflicts-00016: three, 10s apart, read as "backoff 3,
// delay 10s (spacing)" before), and its total the log's lines of it.
func TestConflictRetrySucceeded(t *testing.T) {
	raw, err := os.ReadFile("testdata/demo/conflicts.log")
	if err != nil {
		t.Fatal(err)
	}
	lines := map[string]int{}
	for _, m := range regexp.MustCompile(`"msg":"Reconciler error".*?"name":"(conflicts-\d+)"`).FindAllSubmatch(raw, -1) {
		lines["demo/"+string(m[1])]++
	}
	s := NewStore(Options{Clock: clocktesting.NewFakePassiveClock(time.Date(2026, 12, 8, 3, 0, 0, 0, time.UTC))})
	if _, _, err := s.Read(context.Background(), bytes.NewReader(raw)); err != nil {
		t.Fatal(err)
	}
	several := 0
	for key, n := range lines {
		k, err := s.Key("conflicts", key)
		if err != nil {
			t.Fatalf("%s: %v", key, err)
		}
		if n > 1 {
			several++
		}
		if k.Failures > 1 || k.TotalFailures != n || k.DelaySource == api.SourceSpacing {
			t.Errorf("%s: %d failures (%d in all), delay %v (%s); want at most 1 since its last conflict, %d in all, no spacing",
				key, k.Failures, k.TotalFailures, k.Delay.Duration, k.DelaySource, n)
		}
	}
	if several < 3 {
		t.Fatalf("%d keys with more than one conflict; the fixture has more", several)
	}
}

// TestConflictRetriedAtOnceCounts: kube-controller-manager's deployment
// controller refused twice in 14ms ("Error syncing deployment" … "the
// object has been modified", testdata/kcm/replicaset-quota-raised-v4.log
// at 22:44:40, as -v=2 writes it: no "Finished syncing" line): the second
// is the first's retry failing again, one streak of two, not a success in
// between.
func TestConflictRetriedAtOnceCounts(t *testing.T) {
	raw, err := os.ReadFile("testdata/kcm/replicaset-quota-raised-v4.log")
	if err != nil {
		t.Fatal(err)
	}
	v2 := regexp.MustCompile(`(?m)^.*"Finished syncing.*\n`).ReplaceAll(raw, nil)
	conflicts := regexp.MustCompile(`"Error syncing deployment" deployment="q4/web" err="[^\n]*the object has been modified`).FindAll(v2, -1)
	if len(conflicts) != 2 {
		t.Fatalf("%d conflicts of q4/web in the fixture; want its 2", len(conflicts))
	}
	s := NewStore(Options{Clock: clocktesting.NewFakePassiveClock(time.Date(2026, 12, 7, 22, 46, 10, 0, time.UTC))})
	if _, _, err := s.Read(context.Background(), bytes.NewReader(v2)); err != nil {
		t.Fatal(err)
	}
	k, err := s.Key("deployment-controller", "q4/web")
	if err != nil {
		t.Fatal(err)
	}
	if k.Failures != 2 || k.TotalFailures != 2 {
		t.Errorf("q4/web: %d failures (%d in all); want one streak of its 2 conflicts, 14ms apart", k.Failures, k.TotalFailures)
	}
}
