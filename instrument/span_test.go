package instrument

import (
	"math"

	"testing"
	"time"
	"unsafe"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"

	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

func TestSpanRoundTrip(t *testing.T) {
	for _, tt := range []struct {
		in, want time.Duration
	}{
		{-time.Second, 0},
		{0, 0},
		{999 * time.Nanosecond, 999 * time.Nanosecond},
		{time.Duration(spanMax), time.Duration(spanMax)},                                       // the last nanosecond
		{1_073_743_323, 1_073_743_000},                                                         // microseconds beyond: rounded down
		{DefaultMaxDelay, DefaultMaxDelay},                                                     // client-go's cap, exact
		{time.Duration(spanMax) * time.Microsecond, time.Duration(spanMax) * time.Microsecond}, // exact at the edge
		{time.Hour + 1500*time.Microsecond, time.Hour + time.Millisecond},                      // milliseconds beyond
		{12 * 24 * time.Hour, 12 * 24 * time.Hour},                                             //
		{100 * 24 * time.Hour, 100 * 24 * time.Hour},                                           // seconds beyond
		{time.Duration(math.MaxInt64), time.Duration(spanMax) * time.Second},                   // saturates
	} {
		if got := spanOf(tt.in).duration(); got != tt.want {
			t.Errorf("spanOf(%v).duration() = %v, want %v", tt.in, got, tt.want)
		}
	}
	// Every delay client-go's exponential limiter chooses is kept exactly.
	for n := range 40 {
		d := api.ExponentialDelay(DefaultBaseDelay, DefaultMaxDelay, n)
		if got := spanOf(d).duration(); got != d {
			t.Errorf("delay %d: spanOf(%v).duration() = %v, want it exact", n, d, got)
		}
	}
}

// spanOfLoop is spanOf as it was written first, one loop over the units:
// the reference the unrolled one must agree with.
func spanOfLoop(d time.Duration) span {
	if d <= 0 {
		return 0
	}
	for u, unit := range spanUnits {
		if n := d / unit; n <= time.Duration(spanMax) {
			return span(u)<<spanUnitShift | span(n)
		}
	}
	return span(len(spanUnits)-1)<<spanUnitShift | spanMax
}

// TestSpanOfAtEveryEdge: the unrolled spanOf encodes as the loop does on
// both sides of every unit's edge, and on client-go's delays.
func TestSpanOfAtEveryEdge(t *testing.T) {
	var ds []time.Duration
	for _, unit := range spanUnits {
		edge := (time.Duration(spanMax) + 1) * unit
		for _, off := range []time.Duration{-unit - 1, -unit, -2, -1, 0, 1, unit - 1, unit} {
			ds = append(ds, edge+off)
		}
	}
	for n := range 80 {
		ds = append(ds, api.ExponentialDelay(DefaultBaseDelay, DefaultMaxDelay, n), api.ExponentialDelay(time.Nanosecond, math.MaxInt64, n))
	}
	ds = append(ds, math.MinInt64, -1, 0, 1, math.MaxInt64)
	for _, d := range ds {
		if want, got := spanOfLoop(d), spanOf(d); got != want {
			t.Errorf("spanOf(%d) = %#x, the loop's %#x", d, got, want)
		}
	}
}

func TestTextInterning(t *testing.T) {
	if got := internText("").String(); got != "" {
		t.Errorf(`internText("") = %q, want ""`, got)
	}
	a, b := internText(string([]byte("boom"))), internText(string([]byte("boom")))
	if a != b || unsafe.StringData(a.String()) != unsafe.StringData(b.String()) {
		t.Errorf("two copies of one message intern to different texts")
	}
	long := internText(string(make([]byte, 2*maxErrorBytes)))
	if n := len(long.String()); n > maxErrorBytes {
		t.Errorf("an interned message holds %d bytes, want at most %d", n, maxErrorBytes)
	}
}

// TestAttemptSize guards the history's footprint: 16 slots per key, for up
// to MaxKeys keys (BenchmarkMemoryPerKey measures the whole key).
func TestAttemptSize(t *testing.T) {
	if got := unsafe.Sizeof(slot{}); got != 16 {
		t.Errorf("a history slot is %d bytes, want 16", got)
	}
	// 240 is a size class of Go's allocator: one byte more costs 16 per key.
	if got := unsafe.Sizeof(entry[reconcile.Request]{}); got > 240 {
		t.Errorf("an entry of a reconcile.Request is %d bytes, want at most 240", got)
	}
}
