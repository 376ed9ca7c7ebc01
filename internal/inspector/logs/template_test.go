package logs

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	clocktesting "k8s.io/utils/clock/testing"
)

// The miner groups one statement of a program whatever its variable
// words, the kind a word mask cannot see included, and keeps two
// statements apart.
func TestMinerGroupsTemplates(t *testing.T) {
	var m miner
	a := m.add(template(`failed to sync Widget "default/a": connection refused`))
	b := m.add(template(`failed to sync Gadget "team/b": quota exceeded`))
	c := m.add(template(`finished syncing Widget "default/a": 12ms`))
	if a != b {
		t.Errorf("one statement in two clusters: %q and %q", a, b)
	}
	if a == c {
		t.Errorf("two statements in one cluster: %q", a)
	}
	if got, want := a.String(), "failed to sync <*> <*>"; got != want {
		t.Errorf("template %q, want %q", got, want)
	}
	if got := template("dial 10.0.0.7:443 and fe80::1 failed"); got != "dial <*> and <*> failed" {
		t.Errorf("IPs not masked: %q", got)
	}
}

// A real line whose words do not say it is a failed attempt (Flux's
// source-controller, controllers.GitRepository's "unable to update status"
// at error level, with no retry words, once in its log) is a candidate the
// log's structure does not decide: not read, and --explain-lines says both
// what its words lacked and what its template showed.
func TestCandidateRefusedSaysWhy(t *testing.T) {
	raw, err := os.ReadFile("testdata/wild/source-controller-89.log")
	if err != nil {
		t.Fatal(err)
	}
	var why string
	s := NewStore(Options{Clock: clocktesting.NewFakePassiveClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)), ExplainLines: func(lr LineReading) {
		if lr.Line == 3 {
			why = lr.Why
		}
	}})
	if _, _, err := s.Read(context.Background(), strings.NewReader(string(raw))); err != nil {
		t.Fatal(err)
	}
	want := `says "unable to update" but not that it will retry, requeue or re-add, nor that it gave up; it opens with it, ` +
		`but a failure without those words is read only as a failure to sync, reconcile, handle or process; ` +
		`and nothing in the log's structure says it is a failed attempt: its template "unable to update status" comes once for default/podinfo`
	if why != want {
		t.Errorf("line 3: %q\nwant %q", why, want)
	}
	if _, keys := s.views(""); len(keys) != 1 || keys[0].TotalFailures != 1 {
		t.Errorf("keys %+v, want default/podinfo's one Reconciler error alone", keys)
	}
}

// A stated count decides a line its words alone would not (another verb,
// no retry word) at error level: the queue's NumRequeues, which only a
// failed attempt has; at info level it does not. A shape test: the line is
// written here, in klog's form.
func TestStatedCountDecides(t *testing.T) {
	line := func(level string) string {
		return level + `1211 20:42:09.443169       1 claims.go:88] could not update claim team-a/data-0, failures 3: exceeded quota: team-a-quota`
	}
	s := readLog(t, time.Date(2026, 12, 12, 0, 0, 0, 0, time.UTC), line("E"))
	k := keyDetail(t, s, "claims", "team-a/data-0")
	if k.Failures != 4 || !strings.HasPrefix(k.LogEvidence, "a stated count (4 failures with this one)") {
		t.Errorf("%d failures, evidence %q; want 4, the stated count", k.Failures, k.LogEvidence)
	}
	if _, keys := readLog(t, time.Date(2026, 12, 12, 0, 0, 0, 0, time.UTC), line("I")).views(""); len(keys) != 0 {
		t.Errorf("an info line with a count read as %d keys, want none", len(keys))
	}
}
