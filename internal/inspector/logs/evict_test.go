package logs

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	clocktesting "k8s.io/utils/clock/testing"
)

// distinctKeysLog is n failures, one a second from 10:00:00, each of
// another key.
func distinctKeysLog(n int) string {
	var b strings.Builder
	t0 := time.Date(2026, 12, 3, 10, 0, 0, 0, time.UTC)
	for i := range n {
		fmt.Fprintf(&b, `{"level":"error","ts":"%s","msg":"Reconciler error","controller":"c","namespace":"ns","name":"k%d","error":"boom"}`+"\n",
			t0.Add(time.Duration(i)*time.Second).Format(time.RFC3339), i)
	}
	return b.String()
}

// Issue #47 item 7: past the key cap, the keys dropped were unsaid ("100,000
// keys"): the read says how many, and from the line that first needed
// room; the keys kept plus those dropped are every key the log held.
func TestEvictedKeysAreSaid(t *testing.T) {
	const cap, n = 1000, 5000
	s := NewStore(Options{MaxKeys: cap, Workers: 1, Clock: clocktesting.NewFakePassiveClock(time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC))})
	if _, _, err := s.Read(context.Background(), strings.NewReader(distinctKeysLog(n))); err != nil {
		t.Fatal(err)
	}
	lr := s.LogRead()
	if s.Len() > cap || s.Len()+lr.Evicted != n {
		t.Errorf("%d keys kept and %d said dropped; want at most %d kept, and the two to add up to %d", s.Len(), lr.Evicted, cap, n)
	}
	// The 1001st key (k1000, at 10:16:40) is the first with no room.
	if want := time.Date(2026, 12, 3, 10, 16, 40, 0, time.UTC); !lr.EvictedSince.Equal(want) {
		t.Errorf("evicted since %v, want %v (the line that first needed room)", lr.EvictedSince, want)
	}
	// The oldest went: the newest key is kept.
	if _, err := s.Key("c", fmt.Sprintf("ns/k%d", n-1)); err != nil {
		t.Errorf("the newest key was dropped: %v", err)
	}
	if _, err := s.Key("c", "ns/k0"); err == nil {
		t.Error("the oldest key was kept past the cap")
	}
}

// BenchmarkReadPastTheCap reads 300,000 keys into a store of 100,000 (go
// test -bench ReadPastTheCap -benchtime 1x): the eviction's cost.
func BenchmarkReadPastTheCap(b *testing.B) {
	log := distinctKeysLog(300_000)
	for b.Loop() {
		s := NewStore(Options{Workers: 1, Clock: clocktesting.NewFakePassiveClock(time.Date(2026, 12, 4, 0, 0, 0, 0, time.UTC))})
		if _, _, err := s.Read(context.Background(), strings.NewReader(log)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadUnderTheCap is BenchmarkReadPastTheCap's log into a store
// that holds it all: the read without eviction, to compare.
func BenchmarkReadUnderTheCap(b *testing.B) {
	log := distinctKeysLog(300_000)
	for b.Loop() {
		s := NewStore(Options{Workers: 1, MaxKeys: 1 << 20, Clock: clocktesting.NewFakePassiveClock(time.Date(2026, 12, 4, 0, 0, 0, 0, time.UTC))})
		if _, _, err := s.Read(context.Background(), strings.NewReader(log)); err != nil {
			b.Fatal(err)
		}
	}
}
