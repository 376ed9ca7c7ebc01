package logs

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// A live log (a pipe) whose newest line is already older than DatedAfter
// when read is a saved log piped in: judged as of that line, and
// v1/controllers and Stats say so (source.endsAt). A newer line read within
// DatedAfter of the clock makes it live again; and a live log then quiet
// for hours stays live, its passed retries unknown: the rule is judged as
// lines arrive. The fixture (fluxcd/flux2#4509) is two Kustomizations'
// failures, 05:55:53.572 and 05:56:07.288 on 2024-02-12, each stating
// "next try in 30m0s".
func TestStoreDatedPipe(t *testing.T) {
	raw, err := os.ReadFile("testdata/wild/flux2-4509.log")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(strings.TrimSpace(string(raw)), "\n")
	if len(lines) != 2 {
		t.Fatalf("fixture: %d lines, want 2", len(lines))
	}
	first := time.Date(2024, 2, 12, 5, 55, 53, 572_000_000, time.UTC)
	last := time.Date(2024, 2, 12, 5, 56, 7, 288_000_000, time.UTC)
	clk := clocktesting.NewFakePassiveClock(first.Add(2 * time.Hour))
	s := NewStore(Options{Live: true, DatedAfter: time.Hour, Clock: clk})
	read := func(line string) {
		t.Helper()
		if _, _, err := s.Read(context.Background(), strings.NewReader(line)); err != nil {
			t.Fatalf("Read: %v", err)
		}
	}
	check := func(step string, wantNow, wantEnds time.Time, key string, wantState api.State) {
		t.Helper()
		cl := s.Controllers()
		if len(cl.Controllers) != 1 {
			t.Fatalf("%s: controllers %+v, want kustomization", step, cl.Controllers)
		}
		if !cl.ServerTime.Equal(wantNow) || !cl.Source.EndsAt.Equal(wantEnds) || !s.Stats().EndsAt.Equal(wantEnds) {
			t.Errorf("%s: serverTime %v, source's endsAt %v, Stats.EndsAt %v; want %v, %v, %v",
				step, cl.ServerTime, cl.Source.EndsAt, s.Stats().EndsAt, wantNow, wantEnds, wantEnds)
		}
		k, err := s.Key("kustomization", key)
		if err != nil {
			t.Fatalf("%s: Key(%s): %v", step, key, err)
		}
		if k.State != wantState {
			t.Errorf("%s: %s is %s, want %s", step, key, k.State, wantState)
		}
	}

	// Two hours old when read: dated. Its retry, 30m after the line, is
	// still to come as of the line.
	read(lines[0])
	check("old line", first, first, "flux-system/infra-unstable", api.StateBackoff)

	// A line 10s old when read: live, judged at the clock.
	now := last.Add(10 * time.Second)
	clk.SetTime(now)
	read(lines[1])
	check("fresh line", now, time.Time{}, "flux-system/apps-unstable", api.StateBackoff)

	// Then quiet for three hours: still live; the retry at 06:26:07 came
	// and nothing was logged since, so the key's state is unknown.
	now = last.Add(3 * time.Hour)
	clk.SetTime(now)
	check("quiet since", now, time.Time{}, "flux-system/apps-unstable", api.StateUnknown)
}
