package api

import (
	"slices"
	"testing"
	"time"
)

// TestSortAttention: trouble first — failing keys by how long they have been
// failing, then by failures; queued keys by how long they have waited;
// healthy keys last.
func TestSortAttention(t *testing.T) {
	keys := sortFixture()
	want := []string{
		"failed-old", "backoff-old-many", "backoff-old-few", "backoff-new", "failed-no-start",
		"queued-old", "queued-due", "queued-new",
		"idle", "running", "scheduled",
	}
	checkOrder(t, keys, SortAttention, want)
	if s, err := ParseSort("attention"); err != nil || s != SortAttention {
		t.Errorf("ParseSort(attention) = %q, %v", s, err)
	}
	if Sorts[0] != SortNext {
		t.Errorf("default sort = %s, want next (clients choose attention)", Sorts[0])
	}
}

// TestSortRetrying: keys still retrying first — backoff by how long it has
// been failing (then by key, not by failures), then queued keys; a failed
// key (a terminal error, handled as advised) below them, however long ago
// it failed; healthy keys last.
func TestSortRetrying(t *testing.T) {
	want := []string{
		"backoff-old-few", "backoff-old-many", "backoff-new",
		"queued-old", "queued-due", "queued-new",
		"failed-old", "failed-no-start",
		"idle", "running", "scheduled",
	}
	checkOrder(t, sortFixture(), SortRetrying, want)
	if s, err := ParseSort("retrying"); err != nil || s != SortRetrying {
		t.Errorf("ParseSort(retrying) = %q, %v", s, err)
	}
}

// TestSortRetryingOverRefreshes: keys whose streaks began in the same
// second (a log's whole-second stamps: the demo's naive keys, all failing
// since 19:51:56) keep their order from one refresh to the next while
// their failure counts climb past each other; ranked by failures,
// naive-00000 (249) and naive-00002 (248) swapped rows in top whenever
// one failed again.
func TestSortRetryingOverRefreshes(t *testing.T) {
	since := time.Date(2026, 12, 7, 19, 51, 56, 0, time.UTC)
	key := func(name string, failures int) Key {
		return Key{Controller: "naive", Key: name, State: StateBackoff, Failures: failures, FirstFailureAt: since,
			NextRetryAt: since.Add(time.Hour)}
	}
	want := []string{"demo/naive-00000", "demo/naive-00002", "demo/naive-00004"}
	for i, refresh := range [][]Key{
		{key("demo/naive-00004", 21), key("demo/naive-00002", 248), key("demo/naive-00000", 249)},
		{key("demo/naive-00000", 249), key("demo/naive-00004", 21), key("demo/naive-00002", 250)},
	} {
		slices.SortFunc(refresh, func(a, b Key) int { return CompareKeys(&a, &b, SortRetrying) })
		var got []string
		for _, k := range refresh {
			got = append(got, k.Key)
		}
		if !slices.Equal(got, want) {
			t.Errorf("refresh %d: %v; want %v, by key whatever their failures", i+1, got, want)
		}
	}
}

// TestSortNext: the soonest retry first, as the NEXT RETRY column counts
// down (issue #47: running and queued keys came above the soonest retry):
// keys waiting out a delay by its end, then queued keys (their retry has
// come), the longest waiting first, then running keys, then keys with
// nothing pending.
func TestSortNext(t *testing.T) {
	keys := append(sortFixture(),
		// Released long ago: ranked by that time, it came first.
		Key{Key: "running-released", State: StateRunning, StartedAt: time.Date(2025, 3, 4, 9, 0, 0, 0, time.UTC),
			NextRetryAt: time.Date(2025, 3, 4, 9, 0, 0, 0, time.UTC)})
	want := []string{
		"scheduled", "backoff-new", "backoff-old-few", "backoff-old-many",
		"queued-old", "queued-due", "queued-new",
		"running-released", "running",
		"failed-no-start", "failed-old", "idle",
	}
	checkOrder(t, keys, SortNext, want)
}

// sortFixture is a key in each state, failing keys at several ages.
func sortFixture() []Key {
	t0 := time.Date(2025, 3, 4, 10, 0, 0, 0, time.UTC)
	at := func(m int) time.Time { return t0.Add(time.Duration(m) * time.Minute) }
	return []Key{
		{Key: "idle", State: StateIdle},
		{Key: "running", State: StateRunning, StartedAt: at(1)},
		{Key: "scheduled", State: StateScheduled, NextRetryAt: at(2)},
		{Key: "queued-new", State: StateQueued, QueuedAt: at(9)},
		{Key: "queued-due", State: StateQueued, NextRetryAt: at(5)}, // its retry fell due at 5
		{Key: "queued-old", State: StateQueued, QueuedAt: at(3)},
		{Key: "failed-no-start", State: StateFailed},
		{Key: "backoff-new", State: StateBackoff, Failures: 9, FirstFailureAt: at(8), NextRetryAt: at(20)},
		{Key: "backoff-old-few", State: StateBackoff, Failures: 2, FirstFailureAt: at(1), NextRetryAt: at(30)},
		{Key: "backoff-old-many", State: StateBackoff, Failures: 7, FirstFailureAt: at(1), NextRetryAt: at(30)},
		{Key: "failed-old", State: StateFailed, Failures: 3, FirstFailureAt: at(0)},
	}
}

// checkOrder sorts keys under order from two starting orders and compares
// the result with want.
func checkOrder(t *testing.T, keys []Key, order string, want []string) {
	t.Helper()
	for _, perm := range [][]Key{keys, slices.Clone(keys)} {
		slices.Reverse(perm)
		slices.SortFunc(perm, func(a, b Key) int { return CompareKeys(&a, &b, order) })
		got := make([]string, len(perm))
		for i, k := range perm {
			got[i] = k.Key
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s order\n got %v\nwant %v", order, got, want)
		}
	}
}
