package logs

import (
	"bytes"
	"context"
	"os"
	"regexp"
	"testing"
	"time"

	clocktesting "k8s.io/utils/clock/testing"
)

// TestKCMFinishedTook: each attempt read off kube-controller-manager's log
// at --v=4 took what its "Finished syncing" line states (duration= for
// the replicaset and deployment controllers, elapsed= for the job
// controller's), whether the sync then failed (its end merged with the
// failure line) or succeeded, and the key's last reconcile took its last
// one: describe said "took -". The durations are read from the real
// lines here, in the log's order, by a pattern of their own; at -v=2 (no
// such lines) none is said.
func TestKCMFinishedTook(t *testing.T) {
	for _, c := range []struct {
		file, controller, key string
		end                   *regexp.Regexp // a sync's end of the key, its duration the first group
	}{
		{"replicaset-quota-raised-v4.log", "replicaset-controller", "q4/web-5fc9f4bf66",
			regexp.MustCompile(`"Finished syncing" kind="ReplicaSet" key="q4/web-5fc9f4bf66" duration="([^"]+)"`)},
		{"replicaset-quota-raised-v4.log", "deployment-controller", "q4/web",
			regexp.MustCompile(`"Finished syncing deployment" deployment="q4/web" duration="([^"]+)"`)},
		{"job-podsecurity-v4.log", "job-controller", "psa/migrate",
			regexp.MustCompile(`"Finished syncing job" key="psa/migrate" elapsed="([^"]+)"`)},
	} {
		t.Run(c.controller, func(t *testing.T) {
			raw, err := os.ReadFile("testdata/kcm/" + c.file)
			if err != nil {
				t.Fatal(err)
			}
			var want []time.Duration
			for _, m := range c.end.FindAllSubmatch(raw, -1) {
				d, err := time.ParseDuration(string(m[1]))
				if err != nil {
					t.Fatal(err)
				}
				want = append(want, d)
			}
			if len(want) < 2 {
				t.Fatalf("%d ends of %s in %s; the fixture has more", len(want), c.key, c.file)
			}
			read := func(raw []byte) *Store {
				s := NewStore(Options{Clock: clocktesting.NewFakePassiveClock(time.Date(2026, 12, 8, 0, 0, 0, 0, time.UTC))})
				if _, _, err := s.Read(context.Background(), bytes.NewReader(raw)); err != nil {
					t.Fatal(err)
				}
				return s
			}
			k, err := read(raw).Key(c.controller, c.key)
			if err != nil {
				t.Fatal(err)
			}
			if got := k.LastDuration.Duration; got != want[len(want)-1] {
				t.Errorf("last reconcile took %v; want %v, its last end's", got, want[len(want)-1])
			}
			var got []time.Duration
			for _, a := range k.History {
				got = append(got, a.Duration.Duration)
			}
			// The history keeps the newest attempts: they are the last ends.
			if tail := want[max(0, len(want)-len(got)):]; len(got) == 0 || !equalDurations(got, tail) {
				t.Errorf("attempts took %v; want the ends' %v", got, tail)
			}
			v2 := regexp.MustCompile(`(?m)^.*"Finished syncing.*\n`).ReplaceAll(raw, nil)
			if k2, err := read(v2).Key(c.controller, c.key); err == nil && k2.LastDuration.Duration != 0 {
				t.Errorf("at -v=2: last reconcile took %v; no line states it", k2.LastDuration.Duration)
			}
		})
	}
}

func equalDurations(a, b []time.Duration) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
