package api

import (
	"fmt"
	"math"
	"strings"
	"time"
)

// Sort orders for v1/keys (the sort parameter).
const (
	// SortNext: soonest retry first; keys with none last.
	SortNext = "next"
	// SortFailures: most consecutive failures first.
	SortFailures = "failures"
	// SortKey: by controller, then key.
	SortKey = "key"
	// SortSince: longest failure streak first.
	SortSince = "since"
	// SortAttention: trouble first — failed and backoff keys by how long
	// they have been failing, then waiting keys, healthy keys last. Not in
	// Sorts until the server implements it.
	SortAttention = "attention"
)

// Sorts lists the sort orders, the default first.
var Sorts = []string{SortNext, SortFailures, SortKey, SortSince}

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

// SortRank is a key's primary sort value under order: the smaller sorts first,
// ties go by controller, then key. Times are nanoseconds on any one clock, 0
// for none; waiting says the key waits for a retry at nextRetry (backoff or
// scheduled). The server ranks its entries and clients merge replicas' pages
// with this one definition, so the two cannot drift.
func SortRank(order string, failures int, waiting bool, nextRetry, firstFailure int64) int64 {
	switch order {
	case SortFailures:
		return -int64(failures)
	case SortSince:
		if firstFailure == 0 {
			return math.MaxInt64
		}
		return firstFailure
	case SortKey:
		return 0
	}
	if nextRetry == 0 || !waiting {
		return math.MaxInt64
	}
	return nextRetry
}

// CompareKeys orders a and b as the server sorts v1/keys under order.
func CompareKeys(a, b *Key, order string) int {
	if ra, rb := rank(a, order), rank(b, order); ra != rb {
		if ra < rb {
			return -1
		}
		return 1
	}
	if c := strings.Compare(a.Controller, b.Controller); c != 0 {
		return c
	}
	return strings.Compare(a.Key, b.Key)
}

func rank(k *Key, order string) int64 {
	waiting := k.State != StateIdle && k.State != StateFailed
	return SortRank(order, k.Failures, waiting, unixNano(k.NextRetryAt), unixNano(k.FirstFailureAt))
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
