package logs

import (
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// TestEstimateSpacingRule pins the rule docs/log-mode.md states: the
// estimate is never shorter than the key's own spacing less spacingSlack
// (a retry comes after its delay and a wait for a worker, its reconcile
// and the logger; client-go's per-item limiters never shorten a key's
// delay within a streak), and never over twice a steady spacing.
func TestEstimateSpacingRule(t *testing.T) {
	const ms = time.Millisecond
	for _, tt := range []struct {
		name    string
		x       estimate
		want    time.Duration
		wantSrc string
	}{
		// The spacing between the limiter's delay and half as long again
		// (over its slack) was read as the limiter's, the estimate 3.8s
		// shorter than what the key shows.
		{"14s apart, 10.24s assumed", estimate{exp: 10240 * ms, spacing: 14 * time.Second}, 14 * time.Second, api.SourceSpacing},
		{"2.5s apart, 1.28s assumed", estimate{exp: 1280 * ms, spacing: 2500 * ms}, 2500 * ms, api.SourceSpacing},
		// Late by less than the slack: the assumed limiter's delay, late.
		{"60ms apart, 20ms assumed", estimate{exp: 20 * ms, spacing: 60 * ms}, 20 * ms, api.SourceItemExponential},
		{"5.5s apart, 5.12s assumed", estimate{exp: 5120 * ms, spacing: 5500 * ms}, 5120 * ms, api.SourceItemExponential},
		// The doubling ahead of the spacing: the limiter's.
		{"5.2s apart, 10.24s assumed", estimate{exp: 10240 * ms, spacing: 5200 * ms}, 10240 * ms, api.SourceItemExponential},
		// Steady every 60s (kube-controller-manager's namespace controller at
		// its 1m cap), the default limiter's count at 17: 60s, not 5m27s.
		{"steady 60s, 5m27s assumed", estimate{exp: 327680 * ms, spacing: time.Minute, steadyPairs: 2}, time.Minute, api.SourceSpacing},
		{"steady 60s, 81.92s assumed", estimate{exp: 81920 * ms, spacing: time.Minute, steadyPairs: 2}, 81920 * ms, api.SourceItemExponential},
	} {
		d, src := tt.x.delay(false)
		if d != tt.want || src != tt.wantSrc {
			t.Errorf("%s: %v (%s), want %v (%s)", tt.name, d, src, tt.want, tt.wantSrc)
		}
	}
	// The promise, over a grid of delays and spacings.
	for exp := 5 * ms; exp <= 1000*time.Second; exp *= 2 {
		for spacing := 10 * ms; spacing <= 2000*time.Second; spacing = spacing * 3 / 2 {
			for _, pairs := range []int{0, 2} {
				steady := pairs >= 2
				d, _ := estimate{exp: exp, spacing: spacing, steadyPairs: pairs}.delay(false)
				if d < spacing-spacingSlack {
					t.Fatalf("exp %v, spacing %v: estimate %v is shorter than the spacing less %v", exp, spacing, d, spacingSlack)
				}
				if steady && d > 2*spacing {
					t.Fatalf("exp %v, steady spacing %v: estimate %v is over twice it", exp, spacing, d)
				}
			}
		}
	}
}
