package instrument

import (
	"testing"
	"time"
	"unsafe"

	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

func TestSpanRoundTrip(t *testing.T) {
	for _, tt := range []struct {
		in, want time.Duration
	}{
		{-time.Second, 0},
		{0, 0},
		{999 * time.Nanosecond, 0}, // below the unit: rounded down
		{1500 * time.Nanosecond, time.Microsecond},
		{5 * time.Millisecond, 5 * time.Millisecond},
		{35 * time.Minute, 35 * time.Minute},                                                   // the last microsecond range
		{time.Duration(spanMax) * time.Microsecond, time.Duration(spanMax) * time.Microsecond}, // exact at the edge
		{time.Hour + 1500*time.Microsecond, time.Hour + time.Millisecond},                      // milliseconds beyond
		{20 * 24 * time.Hour, 20 * 24 * time.Hour},
		{100 * 24 * time.Hour, time.Duration(spanMax) * time.Millisecond}, // saturates
	} {
		if got := spanOf(tt.in).duration(); got != tt.want {
			t.Errorf("spanOf(%v).duration() = %v, want %v", tt.in, got, tt.want)
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

// TestAttemptSize guards the history's footprint: 16 attempts per key, for up
// to MaxKeys keys (BenchmarkMemoryPerKey measures the whole key).
func TestAttemptSize(t *testing.T) {
	if got := unsafe.Sizeof(attempt{}); got != 32 {
		t.Errorf("attempt is %d bytes, want 32", got)
	}
	// 208 is a size class of Go's allocator: one byte more costs 16 per key.
	if got := unsafe.Sizeof(entry[reconcile.Request]{}); got > 208 {
		t.Errorf("an entry of a reconcile.Request is %d bytes, want at most 208", got)
	}
}
