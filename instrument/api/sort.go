package api

import (
	"cmp"
	"fmt"
	"math"
	"strings"
	"time"
)

// Sort orders for v1/keys (the sort parameter).
const (
	// SortNext: soonest retry first: keys waiting out a delay (backoff,
	// scheduled) by their next retry; then queued keys, whose retry has
	// come, the longest waiting first; then running keys; idle and failed
	// keys, and keys with no retry time, last. The server's default.
	SortNext = "next"
	// SortFailures: most consecutive failures first.
	SortFailures = "failures"
	// SortKey: by controller, then key.
	SortKey = "key"
	// SortSince: longest failure streak first.
	SortSince = "since"
	// SortAttention: trouble first. Keys that are failed or in backoff come
	// first, the longest failing first (oldest firstFailureAt; a key with no
	// recorded start comes after those with one), then the most failures;
	// then queued keys, the longest waiting first (since queuedAt, or since
	// their retry fell due); every other key (running, scheduled, idle) last.
	SortAttention = "attention"
	// SortRetrying: keys still retrying first. Keys in backoff come first,
	// the longest failing first, then queued keys, the longest waiting
	// first; then failed keys — a terminal error, not retried: the
	// controller handled it as advised and waits for a change to the
	// object, which is not an incident of the controller — the longest
	// failed first; every other key last. Unlike attention, keys that began
	// failing at the same time go by controller and key, not by their
	// failure counts: a log's stamps of whole seconds start many streaks
	// in one second, and counts that change at every refresh swapped their
	// rows in top, which sorts by this order unless told otherwise.
	SortRetrying = "retrying"
)

// Sorts lists the sort orders, the server's default first.
var Sorts = []string{SortNext, SortFailures, SortKey, SortSince, SortAttention, SortRetrying}

// ParseSort returns s as a sort order, or an error that lists the valid ones.
// The empty string is the default order.
func ParseSort(s string) (string, error) {
	if s == "" {
		return Sorts[0], nil
	}
	for _, v := range Sorts {
		if s == v {
			return v, nil
		}
	}
	return "", fmt.Errorf("%q is not a sort order; use %s", s, orList(Sorts))
}

// RankInput is what the sort orders look at in a key: exactly what the wire
// shows of it, so that a client ranks a Key as the server ranked its entry.
// Times are nanoseconds on any one clock, 0 for none.
type RankInput struct {
	State        State
	Failures     int
	NextRetry    int64
	FirstFailure int64
	QueuedAt     int64
}

// Rank is a key's position under a sort order, compared field by field (see
// Compare): the smaller sorts first; ties go by controller, then key.
type Rank [3]int64

// Compare orders r and o: -1 if r sorts first, +1 if o does, 0 on a tie.
func (r Rank) Compare(o Rank) int {
	for i := range r {
		if c := cmp.Compare(r[i], o[i]); c != 0 {
			return c
		}
	}
	return 0
}

// none ranks a missing time after every present one.
const none = math.MaxInt64

// SortRank is a key's rank under order. The server ranks its entries and
// clients merge replicas' pages with this one definition, so the two cannot
// drift.
func SortRank(order string, in RankInput) Rank {
	switch order {
	case SortFailures:
		return Rank{-int64(in.Failures)}
	case SortSince:
		return Rank{orNone(in.FirstFailure)}
	case SortKey:
		return Rank{}
	case SortAttention:
		return attentionRank(in)
	case SortRetrying:
		return retryingRank(in)
	}
	return nextRank(in)
}

// nextRank: tier 0 waiting out a delay, by its end; 1 queued; 2 running;
// 3 the rest. "Next" is read down the NEXT RETRY column, a countdown: a
// queued or running key has no countdown left (its retry has come: "ready",
// "for 4s"), and ranking it by the time it was released at put it above
// every countdown, so the soonest retry was hidden below keys no longer
// waiting for one. They follow the countdowns, before the keys with nothing
// pending: queued first, as the next to start when a worker frees (the
// longest waiting first, as attention ranks them), then running, by the
// time their retry was released.
func nextRank(in RankInput) Rank {
	switch in.State {
	case StateBackoff, StateScheduled:
		if in.NextRetry != 0 {
			return Rank{0, in.NextRetry}
		}
	case StateQueued:
		return attentionRank(in) // {1, since it waits}
	case StateRunning:
		return Rank{2, orNone(in.NextRetry)}
	}
	return Rank{3}
}

// attentionRank: tier 0 failing (failed, backoff), 1 queued, 2 the rest.
func attentionRank(in RankInput) Rank {
	switch in.State {
	case StateFailed, StateBackoff:
		return Rank{0, orNone(in.FirstFailure), -int64(in.Failures)}
	case StateQueued:
		since := in.QueuedAt
		if since == 0 {
			since = in.NextRetry // a retry that fell due
		}
		return Rank{1, orNone(since)}
	}
	return Rank{2}
}

// retryingRank: tier 0 backoff, 1 queued, 2 failed (terminal), 3 the rest;
// a failing key by its streak's start alone (see SortRetrying).
func retryingRank(in RankInput) Rank {
	switch in.State {
	case StateBackoff:
		return Rank{0, orNone(in.FirstFailure)}
	case StateFailed:
		return Rank{2, orNone(in.FirstFailure)}
	case StateQueued:
		return attentionRank(in)
	}
	return Rank{3}
}

func orNone(t int64) int64 {
	if t == 0 {
		return none
	}
	return t
}

// RankOf is k's rank under order.
func RankOf(k *Key, order string) Rank {
	return SortRank(order, RankInput{
		State:        k.State,
		Failures:     k.Failures,
		NextRetry:    unixNano(k.NextRetryAt),
		FirstFailure: unixNano(k.FirstFailureAt),
		QueuedAt:     unixNano(k.QueuedAt),
	})
}

// CompareKeys orders a and b as the server sorts v1/keys under order.
func CompareKeys(a, b *Key, order string) int {
	if c := RankOf(a, order).Compare(RankOf(b, order)); c != 0 {
		return c
	}
	if c := strings.Compare(a.Controller, b.Controller); c != 0 {
		return c
	}
	return strings.Compare(a.Key, b.Key)
}

func unixNano(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

// orList joins names as "a, b or c".
func orList[S ~string](names []S) string {
	var b strings.Builder
	for i, n := range names {
		switch {
		case i == 0:
		case i == len(names)-1:
			b.WriteString(" or ")
		default:
			b.WriteString(", ")
		}
		b.WriteString(string(n))
	}
	return b.String()
}
