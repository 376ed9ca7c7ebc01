package inspector_test

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// TestBucketSaidOneWay: an empty token bucket is said the same way by the
// bucket-empty finding, the forecast of the key's next wait beside it, and
// the controller's limiter line: a bucket in debt as the retries queued on
// it ("99 retries queued on it", -99 tokens), never as "0.0 of 100 tokens"
// beside a forecast of 99 queued; a bucket between 0 and 1 token as the
// tokens left. Each want is read off the tokens.
func TestBucketSaidOneWay(t *testing.T) {
	key := api.Key{State: api.StateBackoff, Failures: 6, Delay: dur(160 * time.Millisecond),
		DelaySource: api.SourceItemExponential, NextRetryAt: at(100 * time.Millisecond), FirstFailureAt: at(-time.Second)}
	for _, tt := range []struct {
		tokens float64
		want   string // the bucket's state, as each of the three says it
		// decides: the bucket's wait, (1-tokens)/10 s, outweighs the
		// 320ms the exponential chooses next, so the forecast tells it.
		decides bool
	}{
		{-99, "99 retries queued on it", true},
		{-3.5, "3 retries queued on it", true}, // the 4th token is half borrowed: 3 whole retries ahead
		{0, "0.0 of its 100 tokens left", false},
		{0.4, "0.4 of its 100 tokens left", false},
	} {
		c := controllerWith(exponential, bucketWith(tt.tokens))
		c.Limiter.Description = "max(item-exponential 5ms..16m40s, bucket 10qps/100)"
		d := inspector.Explain(inspector.ExplainInput{Controller: c, Key: key, Now: explainNow})
		var finding string
		for _, f := range d.Findings {
			if f.Code == inspector.FindingThrottled {
				finding = f.Message
			}
		}
		if want := "The token bucket is empty, " + tt.want + ": every retry of this controller is throttled to 10 per second."; finding != want {
			t.Errorf("tokens %g: the finding says %q, want %q", tt.tokens, finding, want)
		}
		if tt.decides && !strings.Contains(d.Summary, "the token bucket decides, not the failure count ("+tt.want+", refilled at 10 per second)") {
			t.Errorf("tokens %g: the forecast %q does not say %q", tt.tokens, d.Summary, tt.want)
		}
		cd := inspector.DiagnoseController(*c, nil, explainNow)
		limiter := regexp.MustCompile(`(?m)^Limiter: .*`).FindString(strings.Join(cd.Details, "\n"))
		if !strings.HasSuffix(limiter, "; the token bucket is empty, "+tt.want) {
			t.Errorf("tokens %g: the limiter line %q; want it to end in %q", tt.tokens, limiter, "; the token bucket is empty, "+tt.want)
		}
	}
}
