package inspector

import (
	"math"
	"strings"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// planLength is how many coming delays a retry plan names before "…".
const planLength = 3

// retryPlan says what the controller's limiter will wait on a key's next
// failures, from its description: "2.6s, 5.1s, 10s, … up to 16m40s (the
// cap)", "at least …" when a token bucket may make it longer. It is empty
// when the limiter has no per-item exponential part to compute from.
func retryPlan(c *api.Controller, failures int) string {
	exp := component(c, api.SourceItemExponential)
	if exp == nil || exp.BaseDelay.Duration <= 0 {
		return ""
	}
	base, maxDelay := exp.BaseDelay.Duration, exp.MaxDelay.Duration
	if maxDelay <= 0 {
		maxDelay = time.Duration(math.MaxInt64)
	}
	var parts []string
	capped := false
	for i := range planLength {
		d := api.ExponentialDelay(base, maxDelay, failures+i)
		if d >= maxDelay {
			capped = true
			break
		}
		parts = append(parts, FormatDuration(d))
	}
	var b strings.Builder
	if component(c, api.SourceBucket) != nil {
		// max(exponential, bucket): the bucket may make each one longer.
		b.WriteString("at least ")
	}
	b.WriteString(strings.Join(parts, ", "))
	switch {
	case capped && len(parts) == 0:
		b.WriteString(FormatDuration(maxDelay) + " each (the cap)")
	case capped:
		b.WriteString(", then " + FormatDuration(maxDelay) + " each (the cap)")
	case exp.MaxDelay.Duration > 0:
		b.WriteString(", … up to " + FormatDuration(maxDelay) + " (the cap)")
	default:
		b.WriteString(", …")
	}
	return b.String()
}

// nextFailureWait is what the first failure after a reset waits: the
// exponential's base delay ("at least" it, with a bucket), or "" when the
// limiter does not say.
func nextFailureWait(c *api.Controller) string {
	exp := component(c, api.SourceItemExponential)
	if exp == nil || exp.BaseDelay.Duration <= 0 {
		return ""
	}
	if component(c, api.SourceBucket) != nil {
		return "at least " + FormatDuration(exp.BaseDelay.Duration)
	}
	return FormatDuration(exp.BaseDelay.Duration)
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

// bucketWait is the least the token bucket makes a failure at at wait: its
// tokens now (negative when retries are already queued on it), refilled
// until then. Other keys can only take tokens meanwhile, so the true wait is
// at least this. Zero when the bucket says nothing of its tokens.
func bucketWait(bk *api.LimiterComponent, at, now time.Time) time.Duration {
	if bk.Tokens == nil || bk.QPS <= 0 {
		return 0
	}
	tokens := *bk.Tokens + bk.QPS*max(at.Sub(now), 0).Seconds()
	if burst := float64(bk.Burst); bk.Burst > 0 && tokens > burst {
		tokens = burst
	}
	if tokens >= 1 {
		return 0
	}
	return time.Duration((1 - tokens) / bk.QPS * float64(time.Second))
}
