package explain

import (
	"strings"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// A token bucket estimated from a log (log mode) says so wherever its
// tokens are quoted: the headline's "empty", the limiter's tokens.
func TestEstimatedBucketSaysSo(t *testing.T) {
	zero := 0.0
	c := api.Controller{Name: "cattle-controllers", Active: true, Counts: map[api.State]int{api.StateBackoff: 3},
		Limiter: api.Limiter{Description: "max of item-exponential 5ms..16m40s and bucket 10 qps, burst 100 (estimated from logs)",
			Components: []api.LimiterComponent{{Name: api.SourceItemExponential},
				{Name: api.SourceBucket, QPS: 10, Burst: 100, Tokens: &zero, Estimated: true}}}}
	d := DiagnoseController(c, &api.ListSource{Kind: api.SourceLogs}, nil, time.Now())
	if want := "the token bucket is empty (estimated): retries throttled to 10/s"; !strings.Contains(d.Summary, want) {
		t.Errorf("summary %q; want %q", d.Summary, want)
	}
	if got := limiterText(c.Limiter); !strings.Contains(got, "(estimated)") {
		t.Errorf("limiter text %q does not say its tokens are estimated", got)
	}
	one := 93.0
	c.Limiter.Components[1].Tokens = &one
	if got := limiterText(c.Limiter); !strings.Contains(got, "bucket holds 93.0 of 100 tokens (estimated)") {
		t.Errorf("limiter text %q does not say its tokens are estimated", got)
	}
}
