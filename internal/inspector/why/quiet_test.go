package why

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"k8s.io/client-go/kubernetes/fake"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/logs"
)

// TestAskFromLogQuietKey: read live half an hour after the operator's
// last line (testdata/logs/configmap-operator.log), the key w/c1 last
// failed and its retry, due minutes later, never showed: the log cannot
// say it succeeded. The answer says it is not seen lately and how to know,
// not "Current: nothing to wait for"; and `why configmaps` lists it
// instead of calling the kind all Current.
func TestAskFromLogQuietKey(t *testing.T) {
	later := time.Date(2026, 12, 6, 10, 42, 0, 0, time.UTC) // within LiveWithin of the last line: a live log
	f, err := os.Open("testdata/logs/configmap-operator.log")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	// Read as a pod's log is (Cluster.Logs): live, its present the clock's.
	store := logs.NewStore(logs.Options{Live: true, Clock: clocktesting.NewFakeClock(later)})
	if _, _, err := store.Read(context.Background(), f); err != nil {
		t.Fatal(err)
	}
	a := &Asker{Finder: &Finder{Core: fake.NewClientset()}, FromLog: &LogFile{Store: store, Name: "ctl.log"}, Now: func() time.Time { return later }}
	ans := a.Ask(context.Background(), configMapC1(), "configmaps")
	if got := string(ans.Backoff.Key.State); got != "unknown" {
		t.Fatalf("state %s, want unknown (the retry was due at about 10:14, the log is silent since)", got)
	}
	all := ans.Summary + "\n" + strings.Join(ans.Next, "\n")
	if !strings.HasPrefix(ans.Summary, `Unknown: not seen lately: controller "configmap" last failed on it 30m`) {
		t.Errorf("summary %q; want Unknown, not seen lately, its last failure", ans.Summary)
	}
	for _, want := range []string{"may have succeeded", "retry it and read its log again", "kubectl backoff kick --kind ConfigMap w/c1"} {
		if !strings.Contains(all, want) {
			t.Errorf("the answer does not say %q:\n%s", want, all)
		}
	}
	if strings.Contains(all, "nothing to wait for") {
		t.Errorf("the answer says there is nothing to wait for on a key the log lost sight of:\n%s", all)
	}

	l := a.List(context.Background(), []Item{{Object: configMapC1(), Resource: "configmaps"}})
	if len(l.Answers) != 1 || l.Answers[0].Verdict.Status != Unknown {
		t.Errorf("why configmaps lists %d answers, want w/c1 as Unknown (not left out as Current)", len(l.Answers))
	}
}
