package logs

import (
	"slices"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// TestHistoryIsASlice: the ring holds what the slice it replaced held —
// the newest historySize, oldest first — through wraps, a forget taking
// back the newest and a late line's insert.
func TestHistoryIsASlice(t *testing.T) {
	t0 := time.Date(2026, 12, 6, 0, 0, 0, 0, time.UTC)
	at := func(i int) api.Attempt { return api.Attempt{At: t0.Add(time.Duration(i) * time.Second)} }
	var h history
	var want []api.Attempt
	check := func(step string) {
		t.Helper()
		if got := h.slice(); !slices.Equal(got, want) {
			t.Fatalf("%s: got %v, want %v", step, got, want)
		}
		if h.len() != len(want) {
			t.Fatalf("%s: len %d, want %d", step, h.len(), len(want))
		}
		for i := range want {
			if *h.at(i) != want[i] {
				t.Fatalf("%s: at(%d) = %v, want %v", step, i, *h.at(i), want[i])
			}
		}
		if len(want) > 0 && *h.last() != want[len(want)-1] {
			t.Fatalf("%s: last = %v, want %v", step, *h.last(), want[len(want)-1])
		}
	}
	if h.slice() != nil || h.last() != nil {
		t.Fatal("an empty history has attempts")
	}
	add := func(a api.Attempt) {
		h.add(a)
		want = append(want, a)
		if len(want) > historySize {
			want = want[1:]
		}
	}
	for i := range historySize + 5 {
		add(at(2 * i))
		check("add")
	}
	h.dropLast()
	want = want[:len(want)-1]
	check("dropLast after a wrap")
	for i := range 3 {
		add(at(100 + i))
	}
	check("add after dropLast")
	// A late attempt, between the two newest.
	h.insert(api.Attempt{At: at(101).At.Add(time.Millisecond)})
	want = slices.Insert(want, len(want)-1, api.Attempt{At: at(101).At.Add(time.Millisecond)})[1:]
	check("insert")
}
