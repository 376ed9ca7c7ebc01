package instrument

import (
	"testing"

	"k8s.io/client-go/util/workqueue"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// TestDefaultLimiterRule: api.DefaultBaseDelay and api.DefaultMaxDelay are
// the per-item exponential part of client-go's default controller limiter
// (what controller-runtime v0.25 builds with the same literals, 5ms and
// 1000s, for both its queues): the first retry waits the base, and a key
// that keeps failing reaches the cap.
func TestDefaultLimiterRule(t *testing.T) {
	rl := workqueue.DefaultTypedControllerRateLimiter[string]()
	if got := rl.When("k"); got != api.DefaultBaseDelay {
		t.Errorf("first retry after %v, want api.DefaultBaseDelay %v", got, api.DefaultBaseDelay)
	}
	var last = rl.When("k")
	for range 40 {
		last = rl.When("k")
	}
	if last != api.DefaultMaxDelay {
		t.Errorf("a key failing on waits %v, want api.DefaultMaxDelay %v", last, api.DefaultMaxDelay)
	}
	if DefaultBaseDelay != api.DefaultBaseDelay || DefaultMaxDelay != api.DefaultMaxDelay {
		t.Errorf("instrument's defaults %v..%v are not the wire's rule", DefaultBaseDelay, DefaultMaxDelay)
	}
}
