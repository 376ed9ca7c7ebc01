package explain

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// planLength is how many coming delays a retry plan names before "…".
const planLength = 3

// retryPlan says what the controller's limiter will wait on a key's next
// failures, from its description: "2.6s, 5.1s, 10s, … up to 16m40s (the
// cap)"; "about 10s each while the token bucket decides (…), then 20s, …"
// when the bucket's debt outweighs the per-item delays (see
// bucketForecast); "at least …" when a bucket with tokens left, or one that
// does not report them, may make each one longer. It is empty when the
// limiter has no per-item exponential part to compute from.
func retryPlan(c *api.Controller, failures int) string {
	exp := component(c, api.SourceItemExponential)
	if exp == nil || exp.BaseDelay.Duration <= 0 {
		return ""
	}
	base, maxDelay := exp.BaseDelay.Duration, exp.MaxDelay.Duration
	if maxDelay <= 0 {
		maxDelay = time.Duration(math.MaxInt64)
	}
	if f, ok := forecastBucket(c); ok && f.deciding(api.ExponentialDelay(base, maxDelay, failures)) {
		// The failures the bucket decides, then the exponential from there.
		n := failures
		// A delay that reads the same as the bucket's ("10s" for 10.24s)
		// is told with it, not as a step after it.
		same := func(d time.Duration) bool {
			return f.deciding(d) || text.FormatDuration(d) == text.FormatDuration(f.wait)
		}
		for n < failures+64 && same(api.ExponentialDelay(base, maxDelay, n)) && api.ExponentialDelay(base, maxDelay, n) < maxDelay {
			n++
		}
		s := fmt.Sprintf("about %s each %s: the token bucket decides (%s)", text.FormatDuration(f.wait), keepsFailing, f.why())
		if same(api.ExponentialDelay(base, maxDelay, n)) {
			return s // the bucket outlasts the cap
		}
		return s + ", then " + exponentialPlan(exp, base, maxDelay, n)
	}
	plan := exponentialPlan(exp, base, maxDelay, failures)
	if component(c, api.SourceBucket) != nil {
		// max(exponential, bucket): the bucket may make each one longer.
		return "at least " + plan
	}
	return plan
}

// exponentialPlan is the per-item exponential's next delays from failures
// on: "20ms, 40ms, 80ms, … up to 16m40s (the cap)".
func exponentialPlan(exp *api.LimiterComponent, base, maxDelay time.Duration, failures int) string {
	var parts []string
	capped := false
	for i := range planLength {
		d := api.ExponentialDelay(base, maxDelay, failures+i)
		if d >= maxDelay {
			capped = true
			break
		}
		parts = append(parts, text.FormatDuration(d))
	}
	var b strings.Builder
	b.WriteString(strings.Join(parts, ", "))
	switch {
	case capped && len(parts) == 0:
		b.WriteString(text.FormatDuration(maxDelay) + " each (the cap)")
	case capped:
		b.WriteString(", then " + text.FormatDuration(maxDelay) + " each (the cap)")
	case exp.MaxDelay.Duration > 0:
		b.WriteString(", … up to " + text.FormatDuration(maxDelay) + " (the cap)")
	default:
		b.WriteString(", …")
	}
	return b.String()
}

// NextFailureWait says what the first failure after a reset (a forget)
// waits, for screens that offer a forget: the exponential's base delay
// ("5ms"); "about" the bucket's wait when the bucket's debt outweighs it
// ("about 10s: the token bucket decides, not the failure count (99 tokens
// owed, refilled at 10 per second)": a forget resets the per-item
// count, never the bucket); "at least" the base with a bucket that may
// still make it longer. Empty when the limiter does not say.
func NextFailureWait(c *api.Controller) string {
	return nextWait(c, 0)
}

// nextWait is what a key's next failure waits after failures counted: the
// per-item delay, or the token bucket's when it decides (bucketForecast).
func nextWait(c *api.Controller, failures int) string {
	var perItem time.Duration
	exp := component(c, api.SourceItemExponential)
	if exp == nil {
		exp = component(c, api.SourceItemFixed) // base = cap: the same formula
	}
	if exp != nil {
		perItem = api.ExponentialDelay(exp.BaseDelay.Duration, exp.MaxDelay.Duration, failures)
	}
	if f, ok := forecastBucket(c); ok && f.deciding(perItem) {
		return fmt.Sprintf("about %s: the token bucket decides, not the failure count (%s)", text.FormatDuration(f.wait), f.why())
	}
	if exp == nil || exp.BaseDelay.Duration <= 0 {
		return ""
	}
	if component(c, api.SourceBucket) != nil {
		return "at least " + text.FormatDuration(perItem)
	}
	return text.FormatDuration(perItem)
}

// spacingWait is the wait after the next failure of a key whose delay was
// estimated from its own spacing (api.SourceSpacing): at least that delay,
// or the assumed limiter's own when longer.
func spacingWait(c *api.Controller, k api.Key) string {
	w := k.Delay.Duration
	if exp := component(c, api.SourceItemExponential); exp != nil {
		w = max(w, api.ExponentialDelay(exp.BaseDelay.Duration, exp.MaxDelay.Duration, k.Failures))
	}
	if w <= 0 {
		return ""
	}
	return "at least " + text.FormatDuration(w)
}

func component(c *api.Controller, name string) *api.LimiterComponent {
	if c == nil {
		return nil
	}
	for i := range c.Limiter.Components {
		if c.Limiter.Components[i].Name == name {
			return &c.Limiter.Components[i]
		}
	}
	return nil
}
