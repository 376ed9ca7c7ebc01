package explain

import (
	"fmt"
	"math"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// bucketForecast is what a controller-wide token bucket makes a failure
// wait, read from its tokens now.
//
// client-go's BucketRateLimiter answers When with rate.Limiter's
// Reserve().Delay(): every failure of every key takes one token, and when
// none is left the token is borrowed, the count goes negative and the
// failure waits until the refill repays it, (1 - tokens) / qps. The debt is
// the retries queued on the bucket ahead of a new one. While the keys
// behind that debt keep failing, each retry borrows again the token its
// wait repaid, so the debt stays as deep: a failure at any time ahead waits
// what a failure now would. That is the forecast; the old "tokens then,
// refilled until then" figure shrank as a retry came near (7.9s, 5.5s,
// 2.9s…) while every real wait stayed 10s.
type bucketForecast struct {
	qps    float64
	burst  int
	tokens float64
	// wait is what a failure waits on the bucket now: 0 while it holds a token.
	wait time.Duration
}

// forecastBucket reads c's token bucket; ok is false when c has none or it
// does not report its tokens.
func forecastBucket(c *api.Controller) (bucketForecast, bool) {
	return readBucket(component(c, api.SourceBucket))
}

// readBucket reads a bucket component; ok is false when bk is nil or does
// not report its tokens and rate.
func readBucket(bk *api.LimiterComponent) (bucketForecast, bool) {
	if bk == nil || bk.Tokens == nil || bk.QPS <= 0 {
		return bucketForecast{}, false
	}
	f := bucketForecast{qps: bk.QPS, burst: bk.Burst, tokens: *bk.Tokens}
	if f.tokens < 1 {
		f.wait = time.Duration((1 - f.tokens) / f.qps * float64(time.Second))
	}
	return f, true
}

// deciding reports whether the bucket, not a per-item delay d, decides
// what a failure waits: max(exponential, bucket).
func (f bucketForecast) deciding(d time.Duration) bool { return f.wait > 0 && f.wait >= d }

// why says what the forecast rests on: "99 retries queued on it, refilled
// at 10 per second", or "0.4 of its 100 tokens left, refilled at 10 per second".
func (f bucketForecast) why() string {
	return f.level() + ", refilled at " + rate(f.qps) + " per second"
}

// empty reports whether a failure finds no token: it waits on the bucket.
func (f bucketForecast) empty() bool { return f.tokens < 1 }

// emptyText says an empty bucket the way the forecast says it: "the token
// bucket is empty, 99 retries queued on it" while it is in debt (never
// "0.0 of 100 tokens" beside a forecast of 99 queued), "the token bucket
// is empty, 0.4 of its 100 tokens left" before. One wording for the
// bucket-empty finding and the controller's limiter line.
func (f bucketForecast) emptyText() string { return "the token bucket is empty, " + f.level() }

// level is the bucket's tokens as a user counts them: the retries queued
// on it while it is in debt (-99.5 tokens: 99 whole retries ahead of a new
// one), else the tokens left.
func (f bucketForecast) level() string {
	if queued := int(math.Floor(-f.tokens)); queued >= 1 {
		return Plural(queued, "retry") + " queued on it"
	}
	return fmt.Sprintf("%.1f of its %d tokens left", max(f.tokens, 0), f.burst)
}

// keepsFailing is the condition the forecast holds under.
const keepsFailing = "while the retries queued ahead keep failing"

// rate formats a rate as "10", "0.5".
func rate(qps float64) string { return fmt.Sprintf("%g", qps) }
