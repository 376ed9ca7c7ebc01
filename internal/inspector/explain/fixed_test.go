package explain_test

import (
	"strings"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
)

// A per-item fixed interval (api.SourceItemFixed): the HPA controller's
// FixedItemIntervalRateLimiter (its resync period, 15s), as log mode reads
// kube-controller-manager's "horizontal-pod-autoscaler" failures. Its delay is said as a fixed interval, not as a doubling at its
// cap ("15s·2^1, cap 15s (at the cap)" told a user it had grown to a cap).
func TestExplainFixedInterval(t *testing.T) {
	fixed := api.LimiterComponent{Name: api.SourceItemFixed, BaseDelay: dur(15 * time.Second), MaxDelay: dur(15 * time.Second)}
	d := explain.Explain(explain.Input{Controller: controllerWith(fixed), Now: explainNow, Key: api.Key{
		State: api.StateBackoff, Failures: 2, Delay: dur(15 * time.Second), DelaySource: api.SourceItemFixed,
		NextRetryAt: at(10 * time.Second), LastError: errAt(`deployments.apps "web" not found`, -5*time.Second),
		SameErrorCount: 2, FirstFailureAt: at(-20 * time.Second), LastReconcileAt: at(-5 * time.Second)}})
	if want := "per-item fixed interval, 15s every retry, not growing"; !strings.Contains(d.Summary, want) {
		t.Errorf("summary %q; want %q", d.Summary, want)
	}
	if strings.Contains(d.Summary, "2^") || strings.Contains(d.Summary, "at the cap") {
		t.Errorf("summary %q describes a doubling to a cap; the interval is fixed", d.Summary)
	}
	for _, f := range d.Findings {
		if strings.Contains(f.String(), "growing") {
			t.Errorf("finding %q: a fixed interval does not grow", f)
		}
	}
}
