package explain_test

import (
	"regexp"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// TestBucketSaidOneWay: an empty token bucket is said the same way by the
// bucket-empty finding, the forecast of the key's next wait beside it, and
// the controller's limiter line: a bucket in debt as the tokens owed
// ("99 tokens owed", -99 tokens: never "retries queued", since every When
// takes a token, even a key's already waiting), never as "0.0 of 100
// tokens" beside a forecast of a 10s wait; a bucket between 0 and 1 token
// as the tokens left. The finding and the limiter line add what a new
// retry waits, (1 - tokens) / 10 s. Each want is read off the tokens.
func TestBucketSaidOneWay(t *testing.T) {
	key := api.Key{State: api.StateBackoff, Failures: 6, Delay: dur(160 * time.Millisecond),
		DelaySource: api.SourceItemExponential, NextRetryAt: at(100 * time.Millisecond), FirstFailureAt: at(-time.Second)}
	for _, tt := range []struct {
		tokens float64
		want   string // the bucket's state, as each of the three says it
		wait   string // (1 - tokens) / 10 qps
		// decides: the bucket's wait, (1-tokens)/10 s, outweighs the
		// 320ms the exponential chooses next, so the forecast tells it.
		decides bool
	}{
		{-101.9, "102 tokens owed", "10s", true}, // 10.29s; the demo's outage showed it beside 100 keys
		{-99, "99 tokens owed", "10s", true},
		{-3.5, "3.5 tokens owed", "450ms", true},
		{-1, "1 token owed", "200ms", false}, // 200ms < the 320ms the exponential chooses
		{0, "0.0 of its 100 tokens left", "100ms", false},
		{0.4, "0.4 of its 100 tokens left", "60ms", false},
	} {
		c := controllerWith(exponential, bucketWith(tt.tokens))
		c.Limiter.Description = "max(item-exponential 5ms..16m40s, bucket 10qps/100)"
		d := explain.Explain(explain.Input{Controller: c, Key: key, Now: explainNow})
		var finding string
		for _, f := range d.Findings {
			if f.Code == explain.FindingThrottled {
				finding = f.Message
			}
		}
		if want := "The token bucket is empty, " + tt.want + ": a new retry waits about " + tt.wait + ". Every retry of this controller is throttled to 10 per second."; finding != want {
			t.Errorf("tokens %g: the finding says %q, want %q", tt.tokens, finding, want)
		}
		if tt.decides && !strings.Contains(d.Summary, "the token bucket decides, not the failure count ("+tt.want+", refilled at 10 per second)") {
			t.Errorf("tokens %g: the forecast %q does not say %q", tt.tokens, d.Summary, tt.want)
		}
		cd := explain.DiagnoseController(*c, nil, nil, explainNow)
		limiter := regexp.MustCompile(`(?m)^Limiter: .*`).FindString(strings.Join(cd.Details, "\n"))
		if want := "; the token bucket is empty, " + tt.want + ": a new retry waits about " + tt.wait; !strings.HasSuffix(limiter, want) {
			t.Errorf("tokens %g: the limiter line %q; want it to end in %q", tt.tokens, limiter, want)
		}
	}
}

// With the token bucket in debt (tokens owed by the retries waiting), the next
// delay is the bucket's, not the per-item 40ms, and it stays what a failure
// now would wait as the retry comes near: the keys whose retries fall due
// meanwhile fail again and borrow back the tokens the refill repaid. The
// old forecast ("tokens at the retry, refilled until then") shrank, 6s 4s
// from the retry, 2s at it, while every real wait stayed 10s (issue #23).
func TestExplainNextDelayCountsAnEmptyBucket(t *testing.T) {
	now := time.Date(2026, 11, 30, 11, 50, 0, 0, time.UTC)
	tokens := -99.0 // 99 tokens owed on a 10 qps bucket
	c := &api.Controller{Name: "outage", Active: true, Limiter: api.Limiter{Components: []api.LimiterComponent{
		{Name: api.SourceItemExponential, BaseDelay: metav1.Duration{Duration: 5 * time.Millisecond}, MaxDelay: metav1.Duration{Duration: 1000 * time.Second}},
		{Name: api.SourceBucket, QPS: 10, Burst: 100, Tokens: &tokens},
	}}}
	k := api.Key{Controller: "outage", Key: "demo/outage-00003", State: api.StateBackoff, Failures: 3,
		Delay: metav1.Duration{Duration: 10 * time.Second}, DelaySource: api.SourceBucket, NextRetryAt: now.Add(4 * time.Second),
		LastError: &api.ErrorRecord{Message: "503 Service Unavailable", At: now.Add(-6 * time.Second), Class: api.ClassTransient}}
	// -99 tokens: a failure borrows the 100th, repaid in 100/10 = 10s.
	want := "if it fails again, the one after waits about 10s: the token bucket decides, not the failure count (99 tokens owed, refilled at 10 per second)"
	for _, left := range []time.Duration{4 * time.Second, 2 * time.Second, 300 * time.Millisecond} {
		k.NextRetryAt = now.Add(left)
		d := explain.Explain(explain.Input{Key: k, Controller: c, Now: now})
		if !strings.Contains(d.Summary, want) {
			t.Errorf("%v before the retry: summary = %q, want it to contain %q", left, d.Summary, want)
		}
	}
	tokens = 100 // a full bucket: the per-item delay
	d := explain.Explain(explain.Input{Key: k, Controller: c, Now: now})
	if want := "the one after waits at least " + text.FormatDuration(40*time.Millisecond); !strings.Contains(d.Summary, want) {
		t.Errorf("with a full bucket: summary = %q, want it to contain %q", d.Summary, want)
	}
}
