package logs

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	clocktesting "k8s.io/utils/clock/testing"
)

// TestKeyNotesAreTheMaps: a saved read, which finds a held record's entry
// through its key's note (keynote.go), gives each key what a live read
// gives, which applies each record as it comes and finds every entry in
// the map: in a store so small that keys are evicted and come back, their
// notes then keeping an entry the store no longer has.
func TestKeyNotesAreTheMaps(t *testing.T) {
	t0 := time.Date(2026, 12, 7, 8, 0, 0, 0, time.UTC)
	var b strings.Builder
	n := 0
	for round := range 6 {
		for k := range 40 {
			if (k+round)%3 == 0 {
				continue // some keys skip a round: not every key is seen last
			}
			at := t0.Add(time.Duration(n) * time.Second).Format(time.RFC3339)
			n++
			id := fmt.Sprintf("%08x-0000-4000-8000-%012x", n, n)
			// As a container runtime keeps them (a kubelet's prefix): read
			// whole each time, not by the line memo, so that a key's name is
			// the interner's one string, round after round, and its note
			// outlives an eviction.
			fmt.Fprintf(&b, `%s stderr F {"level":"Level(-5)","ts":"%s","msg":"Reconciling","controller":"widget","namespace":"default","name":"k%d","reconcileID":"%s"}`+"\n", at, at, k, id)
			fmt.Fprintf(&b, `%s stderr F {"level":"error","ts":"%s","msg":"Reconciler error","controller":"widget","namespace":"default","name":"k%d","reconcileID":"%s","error":"boom %d"}`+"\n", at, at, k, id, round)
		}
	}
	read := func(live bool) map[string]string {
		s := NewStore(Options{Live: live, MaxKeys: 16, Clock: clocktesting.NewFakePassiveClock(t0.Add(time.Hour))})
		if _, _, err := s.Read(context.Background(), strings.NewReader(b.String())); err != nil {
			t.Fatal(err)
		}
		_, keys := s.views("")
		got := map[string]string{}
		for _, k := range keys {
			got[k.Key] = fmt.Sprintf("%d failures, %q", k.TotalFailures, k.LastError)
		}
		return got
	}
	saved, live := read(false), read(true)
	if len(saved) == 0 || len(saved) > 16 {
		t.Fatalf("%d keys, want some, and at most MaxKeys: %v", len(saved), saved)
	}
	if !reflect.DeepEqual(saved, live) {
		t.Errorf("saved read:\n%v\nlive read:\n%v", saved, live)
	}
}
