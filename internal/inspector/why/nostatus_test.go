package why

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// TestNoStatusKindByItsControllersError: an object whose kind has no
// status is judged by its controller's word on its key. A ClusterRole the
// aggregation controller may not write (kube-controller-manager's log,
// batch14/1440: a ValidatingAdmissionPolicy denies it) said InProgress, as
// if a retry would see it through; its error is one no retry mends, so it
// is Failed, as Crossplane's Synced=False is. A transient error stays
// InProgress; a key the controller gave up on says how, not "a terminal
// error".
func TestNoStatusKindByItsControllersError(t *testing.T) {
	denied := &api.ErrorRecord{Message: `clusterroles.rbac.authorization.k8s.io "monitoring-view" is forbidden: ValidatingAdmissionPolicy 'lock-rbac-and-pvcs' with binding 'lock-rbac-and-pvcs' denied request: change blocked by policy SEC-118 (break-glass required)`,
		At: now.Add(-10 * time.Second), Class: api.ClassPermanent}
	conflict := &api.ErrorRecord{Message: `Operation cannot be fulfilled on clusterroles.rbac.authorization.k8s.io "monitoring-view": the object has been modified`,
		At: now.Add(-10 * time.Second), Class: api.ClassTransient}
	for _, tt := range []struct {
		name     string
		key      api.Key
		status   string
		summary  string
		evidence string
	}{
		{"denied by a policy", api.Key{Key: "monitoring-view", State: api.StateBackoff, Failures: 2, TotalFailures: 2, NextRetryAt: now.Add(10 * time.Second), LastError: denied},
			Failed, `Failed: controller "clusterroleaggregation_controller" is failing on it: 2 failures logged`, "on an error no retry mends; a ClusterRole has no status for kstatus to read"},
		{"a conflict", api.Key{Key: "monitoring-view", State: api.StateBackoff, Failures: 2, TotalFailures: 2, NextRetryAt: now.Add(10 * time.Second), LastError: conflict},
			InProgress, `InProgress: controller "clusterroleaggregation_controller" is failing on it: 2 failures logged`, "(2 failures logged, from its log); a ClusterRole has no status"},
		{"given up, the count stated", api.Key{Key: "monitoring-view", State: api.StateFailed, Failures: 5, TotalFailures: 3, LastReconcileAt: now.Add(-10 * time.Second), LastError: denied,
			LastReset: &api.Reset{At: now.Add(-10 * time.Second), By: api.ResetGaveUp, Failures: 5, Kept: true}},
			Failed, `Failed: controller "clusterroleaggregation_controller" gave up on it after 5 failures: only a change`, `"clusterroleaggregation_controller" gave up on it after 5 failures (from its log)`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.key.Source, tt.key.Controller = api.SourceLogs, "clusterroleaggregation_controller"
			a := &Answer{Object: Object{APIVersion: "rbac.authorization.k8s.io/v1", Kind: "ClusterRole", Name: "monitoring-view", Key: "monitoring-view"},
				Verdict: Verdict{Status: Current, KStatus: Current, NoStatus: true, KindNoStatus: true},
				Backoff: &Backoff{Source: SourceLogs, Controller: "clusterroleaggregation_controller", ServerTime: now, Key: &tt.key},
				Now:     now}
			controllerVerdict(a)
			s, _ := summarize(a, CommandHint{})
			if a.Verdict.Status != tt.status || a.Verdict.KStatus != Current || !strings.HasPrefix(s, tt.summary) {
				t.Errorf("status %s (kstatus %s), summary %q; want %s, %q…", a.Verdict.Status, a.Verdict.KStatus, s, tt.status, tt.summary)
			}
			if !slices.ContainsFunc(a.Verdict.Evidence, func(e string) bool { return strings.Contains(e, tt.evidence) }) {
				t.Errorf("evidence %q lacks %q", a.Verdict.Evidence, tt.evidence)
			}
		})
	}
}
