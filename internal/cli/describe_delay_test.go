package cli

import (
	"testing"
	"time"
)

// TestDelayText: describe's Delay counter names the limiter beside the
// delay, and says "-" alone for a key with neither (an idle key printed
// "- (-)").
func TestDelayText(t *testing.T) {
	for _, tt := range []struct {
		d      time.Duration
		source string
		want   string
	}{
		{10 * time.Second, "item-exponential", "10s (item-exponential)"},
		{0, "", "-"},
		{0, "requeue-after", "- (requeue-after)"},
	} {
		if got := delayText(tt.d, tt.source); got != tt.want {
			t.Errorf("delayText(%v, %q) = %q, want %q", tt.d, tt.source, got, tt.want)
		}
	}
}
