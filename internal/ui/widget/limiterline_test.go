package widget

import (
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// A bucket's tokens estimated from a log carry "*", as an estimated key does.
func TestLimiterLineMarksEstimatedTokens(t *testing.T) {
	tok := 93.0
	c := api.Controller{Name: "cattle", Limiter: api.Limiter{Description: "…", Components: []api.LimiterComponent{
		{Name: api.SourceItemExponential}, {Name: api.SourceBucket, QPS: 10, Burst: 100, Tokens: &tok, Estimated: true}}}}
	if got := briefLimiter(&c); !strings.Contains(got, "bucket 93/100*") {
		t.Errorf("brief %q; want the tokens marked estimated: bucket 93/100*", got)
	}
	c.Limiter.Components[1].Estimated = false
	if got := briefLimiter(&c); !strings.Contains(got, "bucket 93/100") || strings.Contains(got, "*") {
		t.Errorf("brief %q; want bucket 93/100 unmarked when read from the queue", got)
	}
}

// A per-item fixed interval (api.SourceItemFixed, the HPA controller's
// 15s) is said as one, not as "exp 15s..15s".
func TestLimiterLineFixedInterval(t *testing.T) {
	c := api.Controller{Name: "horizontal-pod-autoscaler-controller", Limiter: api.Limiter{Components: []api.LimiterComponent{
		{Name: api.SourceItemFixed, BaseDelay: metav1.Duration{Duration: 15 * time.Second}, MaxDelay: metav1.Duration{Duration: 15 * time.Second}}}}}
	if got := briefLimiter(&c); got != "fixed 15s" {
		t.Errorf("brief %q; want fixed 15s", got)
	}
}

// The limiter of a controller the log does not name is not "limiter
// unknown …" (a state's word), as the diagnosis above it is not.
func TestLimiterLineUnnamedController(t *testing.T) {
	s := NewStyles(true)
	c := api.Controller{Name: "unknown", Limiter: api.Limiter{Description: "item-exponential 5ms..16m40s", Components: []api.LimiterComponent{{Name: api.SourceItemExponential}}}}
	line := LimiterLine(&s, []api.Controller{c}, 160, time.Time{})
	if strings.Contains(line, "unknown") || !strings.Contains(line, "controller not named in the log") {
		t.Errorf("limiter line %q; want the controller said as not named in the log", line)
	}
}
