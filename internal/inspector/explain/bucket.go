package explain

import (
	"fmt"
	"math"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// bucketForecast is what a controller-wide token bucket makes a failure
// wait, read from its tokens now.
//
// client-go's BucketRateLimiter answers When with rate.Limiter's
// Reserve().Delay(): every When takes one token, whatever the key, and when
// none is left the token is borrowed, the count goes negative and the
// failure waits until the refill repays it, (1 - tokens) / qps. The debt is
// tokens owed, not retries queued: a When on a key already waiting still
// takes a token while the queue keeps the key's sooner ready time, so the
// debt can exceed the keys waiting (101 owed beside 100 keys). While the
// keys waiting on the bucket keep failing, each retry borrows again the
// token its wait repaid, so the debt stays as deep: a failure at any time
// ahead waits what a failure now would. That is the forecast; the old
// "tokens then, refilled until then" figure shrank as a retry came near
// (7.9s, 5.5s, 2.9s…) while every real wait stayed 10s.
type bucketForecast struct {
	qps    float64
	burst  int
	tokens float64
	// wait is what a failure waits on the bucket now: 0 while it holds a token.
	wait time.Duration
	// estimated says the tokens were estimated (log mode), not read.
	estimated bool
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
	f := bucketForecast{qps: bk.QPS, burst: bk.Burst, tokens: *bk.Tokens, estimated: bk.Estimated}
	if f.tokens < 1 {
		f.wait = time.Duration((1 - f.tokens) / f.qps * float64(time.Second))
	}
	return f, true
}

// deciding reports whether the bucket, not a per-item delay d, decides
// what a failure waits: max(exponential, bucket).
func (f bucketForecast) deciding(d time.Duration) bool { return f.wait > 0 && f.wait >= d }

// why says what the forecast rests on: "99 tokens owed, refilled at 10
// per second", or "0.4 of its 100 tokens left, refilled at 10 per second".
func (f bucketForecast) why() string {
	return f.level() + ", refilled at " + rate(f.qps) + " per second"
}

// empty reports whether a failure finds no token: it waits on the bucket.
func (f bucketForecast) empty() bool { return f.tokens < 1 }

// emptyText says an empty bucket the way the forecast says it, with what
// a failure now waits: "the token bucket is empty, 99 tokens owed: a new
// retry waits about 10s" while it is in debt (never "0.0 of 100 tokens"
// beside a forecast of a 10s wait), "the token bucket is empty, 0.4 of its
// 100 tokens left: a new retry waits about 60ms" before. One wording for
// the bucket-empty finding and the controller's limiter line.
func (f bucketForecast) emptyText() string {
	return "the token bucket is empty, " + f.level() + ": a new retry waits about " + text.FormatDuration(f.wait)
}

// level is the bucket's tokens as a user counts them: the tokens owed while
// it is in debt ("102 tokens owed" for 101.9, "3.5 tokens owed": tenths
// only under 10, as FormatDuration keeps them), else the tokens left.
// Owed tokens are not retries: every When takes one, even for a key
// already waiting.
func (f bucketForecast) level() string {
	if f.estimated {
		// Replayed over a log's failure lines, not read from the queue.
		return f.tokensLevel() + " (estimated)"
	}
	return f.tokensLevel()
}

// tokensLevel is level without its estimate mark.
func (f bucketForecast) tokensLevel() string {
	if tenths := math.Round(-f.tokens * 10); tenths >= 1 {
		if tenths >= 100 {
			tenths = math.Round(tenths/10) * 10
		}
		if math.Mod(tenths, 10) == 0 {
			return text.Plural(int(tenths/10), "token") + " owed"
		}
		return fmt.Sprintf("%.1f tokens owed", tenths/10)
	}
	return fmt.Sprintf("%.1f of its %d tokens left", max(f.tokens, 0), f.burst)
}

// keepsFailing is the condition the forecast holds under.
const keepsFailing = "while the keys waiting on it keep failing"

// rate formats a rate as "10", "0.5".
func rate(qps float64) string { return fmt.Sprintf("%g", qps) }
