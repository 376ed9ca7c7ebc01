package why

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes/fake"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

var now = time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)

// fakeKeys answers for one key from the endpoint or the log, and records
// which was asked.
type fakeKeys struct {
	endpoint, log *Backoff
	endpointErr   error
	asked         []string
}

func (f *fakeKeys) Endpoint(_ context.Context, c *Controller, _ schema.GroupKind, _ string) (*Backoff, error) {
	f.asked = append(f.asked, "endpoint "+c.Namespace+"/"+c.Target)
	return f.endpoint, f.endpointErr
}

func (f *fakeKeys) Logs(_ context.Context, c *Controller, _ string) (*Backoff, error) {
	f.asked = append(f.asked, "logs "+c.Namespace+"/"+c.Target)
	return f.log, nil
}

// managedBy sets managedFields as the API server writes them: spec by
// specManager at specAt, status (subresource) by statusManager.
func managedBy(u *unstructured.Unstructured, specManager string, specAt time.Time, statusManager string) {
	u.SetManagedFields([]metav1.ManagedFieldsEntry{
		{Manager: specManager, Operation: metav1.ManagedFieldsOperationUpdate, Time: &metav1.Time{Time: specAt},
			FieldsType: "FieldsV1", FieldsV1: &metav1.FieldsV1{Raw: []byte(`{"f:spec":{"f:dnsNames":{}}}`)}},
		{Manager: statusManager, Operation: metav1.ManagedFieldsOperationUpdate, Time: &metav1.Time{Time: specAt.Add(time.Second)},
			FieldsType: "FieldsV1", FieldsV1: &metav1.FieldsV1{Raw: []byte(`{"f:status":{"f:conditions":{}}}`)}, Subresource: "status"},
	})
}

// certManager is a cluster running cert-manager's controller Deployment, not instrumented.
func certManager() *fake.Clientset {
	return fake.NewClientset(
		deployment("cert-manager", "cert-manager", "cert-manager-controller"),
		runningPod("cert-manager", "cert-manager-648cd49b44-z6g8s", map[string]string{"app": "cert-manager"}, false),
	)
}

// TestAskFailingFromLog: a Certificate changed 12 minutes ago whose
// controller is not instrumented: the log's estimate names the failures and
// the next retry, and the next step is the error and kick.
func TestAskFailingFromLog(t *testing.T) {
	u := load(t, "certmanager-certificate-issuing.yaml")
	managedBy(u, "kubectl-client-side-apply", now.Add(-12*time.Minute), "cert-manager-certificates-issuing")
	keys := &fakeKeys{log: &Backoff{Source: SourceLogs, Controller: "certificates-issuing", ServerTime: now, Key: &api.Key{
		Controller: "certificates-issuing", Key: "default/defaults-example-certificate-tls", State: api.StateBackoff, Failures: 3,
		NextRetryAt: now.Add(40 * time.Second), Source: api.SourceLogs, Estimated: true,
		LastError: &api.ErrorRecord{Message: `issuer "our-corp-issuer" not found`, At: now.Add(-20 * time.Second)},
	}}}
	a := &Asker{Finder: &Finder{Core: certManager()}, Keys: keys, Now: func() time.Time { return now }}
	ans := a.Ask(context.Background(), u, "certificates")

	// cert-manager records the observed generation per condition, not in status.
	if got, want := ans.GenerationLine(), "generation 1, changed 12m0s ago by kubectl-client-side-apply; its conditions say the controller has observed 1"; got != want {
		t.Errorf("generation line:\n %s\nwant\n %s", got, want)
	}
	if c := ans.Controller; c.Rule != RuleDeploymentPart || c.Target != "deploy/cert-manager" || c.Instrumented {
		t.Errorf("controller %+v; want deploy/cert-manager by %s, not instrumented", c, RuleDeploymentPart)
	}
	if !slices.Equal(keys.asked, []string{"logs cert-manager/deploy/cert-manager"}) {
		t.Errorf("asked %v; want the log only", keys.asked)
	}
	if want := `InProgress: controller "certificates-issuing" is failing on it: 3 failures logged, next retry in 40s (estimated).`; ans.Summary != want {
		t.Errorf("summary:\n %s\nwant\n %s", ans.Summary, want)
	}
	next := strings.Join(ans.Next, "\n")
	for _, want := range []string{`Fix what the error names: issuer "our-corp-issuer" not found`,
		"kubectl backoff kick deploy/cert-manager -n cert-manager --from-logs default/defaults-example-certificate-tls"} {
		if !strings.Contains(next, want) {
			t.Errorf("next steps lack %q:\n%s", want, next)
		}
	}
	if ans.Waiting.Duration != 12*time.Minute {
		t.Errorf("waiting %v; want 12m (the spec change's age)", ans.Waiting)
	}
}

// TestAskFailingFromEndpoint: an instrumented controller says the key's
// backoff exactly, and the next step is forget --requeue on it (its queue
// is instrumented: Requeues).
func TestAskFailingFromEndpoint(t *testing.T) {
	u := load(t, "flux-kustomization-ready.yaml")
	u.SetGeneration(2) // an edit Flux has not reconciled: Ready is stale
	managedBy(u, "kubectl-client-side-apply", now.Add(-3*time.Minute), "kustomize-controller")
	cs := fake.NewClientset(deployment("flux-system", "kustomize-controller", "manager"),
		runningPod("flux-system", "kustomize-controller-0", map[string]string{"app": "kustomize-controller"}, true))
	keys := &fakeKeys{endpoint: &Backoff{Source: SourceEndpoint, Controller: "kustomization", ServerTime: now, Requeues: true, Key: &api.Key{
		Controller: "kustomization", Key: "flux-system/flux-system", State: api.StateBackoff, Failures: 17,
		NextRetryAt: now.Add(4*time.Minute + 12*time.Second),
	}}}
	a := &Asker{Finder: &Finder{Core: cs}, Keys: keys, Now: func() time.Time { return now }}
	ans := a.Ask(context.Background(), u, "kustomizations")
	if want := `InProgress: controller "kustomization" is failing on it: 17 consecutive failures, next retry in 4m12s (exact).`; ans.Summary != want {
		t.Errorf("summary:\n %s\nwant\n %s", ans.Summary, want)
	}
	if want := "kubectl backoff forget deploy/kustomize-controller -n flux-system flux-system/flux-system --requeue --controller kustomization"; !strings.Contains(strings.Join(ans.Next, "\n"), want) {
		t.Errorf("next steps lack %q: %v", want, ans.Next)
	}
	if !slices.Equal(keys.asked, []string{"endpoint flux-system/deploy/kustomize-controller"}) {
		t.Errorf("asked %v; want the endpoint only", keys.asked)
	}
}

// TestAskReconciled: a Current object whose controller tracks no failure
// has nothing to wait for.
func TestAskReconciled(t *testing.T) {
	u := load(t, "flux-kustomization-ready.yaml")
	managedBy(u, "kubectl-client-side-apply", now.Add(-time.Hour), "kustomize-controller")
	cs := fake.NewClientset(deployment("flux-system", "kustomize-controller", "manager"),
		runningPod("flux-system", "kustomize-controller-0", map[string]string{"app": "kustomize-controller"}, true))
	for _, b := range []*Backoff{
		{Source: SourceEndpoint, Controller: "kustomization", NotTracked: "not tracked"},
		{Source: SourceEndpoint, Controller: "kustomization", Key: &api.Key{Key: "flux-system/flux-system", State: api.StateIdle}},
	} {
		a := &Asker{Finder: &Finder{Core: cs}, Keys: &fakeKeys{endpoint: b}, Now: func() time.Time { return now }}
		ans := a.Ask(context.Background(), u, "kustomizations")
		if !strings.HasPrefix(ans.Summary, "Current: ") || !strings.Contains(ans.Summary, "nothing to wait for") || len(ans.Next) != 0 || ans.Waiting.Duration != 0 {
			t.Errorf("summary %q, next %v, waiting %v; want Current, nothing to wait for, no step", ans.Summary, ans.Next, ans.Waiting)
		}
	}
}

// TestAskNoStatusManager: nothing wrote the status: said so, and no pod is searched.
func TestAskNoStatusManager(t *testing.T) {
	u := load(t, "flux-kustomization-new.yaml")
	keys := &fakeKeys{}
	a := &Asker{Finder: &Finder{Core: fake.NewClientset()}, Keys: keys, Now: func() time.Time { return now }}
	ans := a.Ask(context.Background(), u, "kustomizations")
	if !strings.Contains(ans.Summary, "no status manager was found") || len(keys.asked) != 0 {
		t.Errorf("summary %q, asked %v; want no status manager, nothing asked", ans.Summary, keys.asked)
	}
}

// TestAskInstrumentedOtherKind: an instrumented pod that runs no controller
// of the kind is read through its log, and the answer says why.
func TestAskInstrumentedOtherKind(t *testing.T) {
	u := load(t, "flux-kustomization-ready.yaml")
	managedBy(u, "kubectl", now.Add(-time.Hour), "kustomize-controller")
	cs := fake.NewClientset(deployment("flux-system", "kustomize-controller", "manager"),
		runningPod("flux-system", "kustomize-controller-0", map[string]string{"app": "kustomize-controller"}, true))
	keys := &fakeKeys{endpointErr: ErrNoController, log: &Backoff{Source: SourceLogs, NotTracked: "no line"}}
	a := &Asker{Finder: &Finder{Core: cs}, Keys: keys, Now: func() time.Time { return now }}
	ans := a.Ask(context.Background(), u, "kustomizations")
	if len(keys.asked) != 2 || ans.Backoff == nil || !strings.Contains(ans.Backoff.Note, "runs no controller of kind Kustomization.kustomize.toolkit.fluxcd.io") {
		t.Errorf("asked %v, backoff %+v; want the endpoint, then the log with a note", keys.asked, ans.Backoff)
	}
}

// TestAskEndpointUnreachable: an instrumented pod whose endpoint cannot be
// reached is read through its log, and the answer says why.
func TestAskEndpointUnreachable(t *testing.T) {
	u := load(t, "flux-kustomization-ready.yaml")
	managedBy(u, "kubectl", now.Add(-time.Hour), "kustomize-controller")
	cs := fake.NewClientset(deployment("flux-system", "kustomize-controller", "manager"),
		runningPod("flux-system", "kustomize-controller-0", map[string]string{"app": "kustomize-controller"}, true))
	keys := &fakeKeys{endpointErr: errors.New(`you may not "create" on "pods/portforward"`), log: &Backoff{Source: SourceLogs, NotTracked: "no line"}}
	a := &Asker{Finder: &Finder{Core: cs}, Keys: keys, Now: func() time.Time { return now }}
	ans := a.Ask(context.Background(), u, "kustomizations")
	if len(keys.asked) != 2 || ans.Backoff == nil || !strings.Contains(ans.Backoff.Note, `could not be read (you may not "create" on "pods/portforward"): its log was read instead`) {
		t.Errorf("asked %v, backoff %+v; want the endpoint, then the log with a note", keys.asked, ans.Backoff)
	}
}

// TestAskStatusWrittenNoManager: a verbatim MachineDeployment, pasted as
// `kubectl get -o yaml` prints it (no managedFields), whose conditions its
// controller wrote at the object's generation: it was reconciled, and the
// answer must not say nothing reconciled it.
func TestAskStatusWrittenNoManager(t *testing.T) {
	u := load(t, "capi-machinedeployment-rollingout.yaml")
	a := &Asker{Finder: &Finder{Core: fake.NewClientset()}, Keys: &fakeKeys{}, Now: func() time.Time { return now }}
	ans := a.Ask(context.Background(), u, "machinedeployments")
	if strings.Contains(ans.Summary, "nothing has reconciled") || strings.Contains(strings.Join(ans.Next, " "), "nothing has reconciled") {
		t.Errorf("summary %q, next %v: says nothing reconciled an object whose controller wrote its conditions", ans.Summary, ans.Next)
	}
	if !strings.Contains(ans.Summary, "its status was written") || len(ans.Next) != 1 ||
		!strings.Contains(ans.Next[0], "why machinedeployment/workload-docker-01-wave-1 -n c-workload-docker-01 --controller-pod") {
		t.Errorf("summary %q, next %v; want the status written, and --controller-pod for this object", ans.Summary, ans.Next)
	}
}
