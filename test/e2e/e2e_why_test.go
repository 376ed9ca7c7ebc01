//go:build e2e

package e2e

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/go-logr/zapr"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/why"
)

// `why` starts from the object. Two controllers reconcile e2e kinds with a
// status subresource and observedGeneration:
//   - widgets (e2e_widget_test.go): instrumented, in the demo's endpoint. It
//     writes status as the test binary (its user agent), a manager no
//     Deployment is named after: why finds it as the instrumented pod whose
//     controller reconciles Widget;
//   - gadgets (here): a plain controller-runtime controller, not
//     instrumented, whose log is the demo pod's container log (kwok serves
//     it). It writes status through the field manager "demo", the
//     Deployment's name: why finds the Deployment by name, sees that its
//     endpoint runs no Gadget controller, and reads its log.

// gadgetGVK is the kind the uninstrumented controller reconciles.
var gadgetGVK = schema.GroupVersionKind{Group: "e2e.kubectl-backoff.io", Version: "v1", Kind: "Gadget"}

// gadgetFieldManager is the gadgets controller's field manager: the name of
// the Deployment its pod belongs to, as Flux's kustomize-controller writes
// as "kustomize-controller".
const gadgetFieldManager = deploymentName

// whyNamespace holds the Gadget nobody reconciles: the gadgets controller
// watches only the demo namespace.
const whyNamespace = "why-nobody"

// gadgetCRD is the Gadget CRD: a Widget by another name.
func gadgetCRD() *apiextensionsv1.CustomResourceDefinition {
	c := widgetCRD()
	c.Name = "gadgets." + gadgetGVK.Group
	c.Spec.Names = apiextensionsv1.CustomResourceDefinitionNames{Plural: "gadgets", Singular: "gadget", Kind: gadgetGVK.Kind, ListKind: gadgetGVK.Kind + "List"}
	return c
}

func newGadget(namespace, name string, spec map[string]any) *unstructured.Unstructured {
	u := newWidget(namespace, name, spec)
	u.SetGroupVersionKind(gadgetGVK)
	return u
}

// gadgetReconciler fails while spec.fail is true; otherwise it records the
// generation in status.observedGeneration and a Ready condition, as Flux
// and cert-manager do.
type gadgetReconciler struct{ c client.Client }

func (r *gadgetReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	u := newGadget(req.Namespace, req.Name, nil)
	if err := r.c.Get(ctx, req.NamespacedName, u); err != nil {
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	if fail, _, _ := unstructured.NestedBool(u.Object, "spec", "fail"); fail {
		return reconcile.Result{}, errors.New("gadget backend refused the spec: quota exceeded")
	}
	gen := u.GetGeneration()
	if og, _, _ := unstructured.NestedInt64(u.Object, "status", "observedGeneration"); og == gen {
		return reconcile.Result{}, nil
	}
	u.Object["status"] = map[string]any{
		"observedGeneration": gen,
		"conditions": []any{map[string]any{"type": "Ready", "status": "True", "reason": "Reconciled", "message": "gadget is up",
			"observedGeneration": gen, "lastTransitionTime": time.Now().UTC().Format(time.RFC3339)}},
	}
	return reconcile.Result{}, r.c.Status().Update(ctx, u)
}

// startGadgets runs the gadgets controller with controller-runtime's own
// limiter and its production JSON logger writing to log (the pod's log).
func startGadgets(t *testing.T, cfg *rest.Config, namespace string, log io.Writer) {
	t.Helper()
	enc := zap.NewProductionEncoderConfig()
	enc.EncodeTime = zapcore.RFC3339TimeEncoder
	logger := zapr.NewLogger(zap.New(zapcore.NewCore(zapcore.NewJSONEncoder(enc), zapcore.Lock(zapcore.AddSync(log)), zapcore.InfoLevel)))
	mgr, err := manager.New(cfg, manager.Options{
		Cache:                   cache.Options{DefaultNamespaces: map[string]cache.Config{namespace: {}}},
		Metrics:                 metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress:  "0",
		GracefulShutdownTimeout: ptr.To(5 * time.Second),
		Logger:                  logger,
	})
	if err != nil {
		t.Fatalf("gadgets manager: %v", err)
	}
	err = builder.ControllerManagedBy(mgr).
		Named("gadget").
		For(newGadget("", "", nil)).
		WithOptions(controller.TypedOptions[reconcile.Request]{SkipNameValidation: ptr.To(true)}).
		Complete(&gadgetReconciler{c: client.WithFieldOwner(mgr.GetClient(), gadgetFieldManager)})
	if err != nil {
		t.Fatalf("gadgets controller: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- mgr.Start(ctx) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("gadgets manager: %v", err)
			}
		case <-time.After(15 * time.Second):
			t.Errorf("gadgets manager did not stop within 15s")
		}
	})
	if !mgr.GetCache().WaitForCacheSync(ctx) {
		t.Fatal("gadgets manager: cache did not sync")
	}
}

// testWhy runs `why` on a reconciled object, on two failing ones (one per
// controller), and on one nobody reconciles.
func testWhy(ctx context.Context, t *testing.T, kc *kubectl, admin string, c client.Client, env *envtest.Environment, dir string, cs kubernetes.Interface) {
	// Each object is first reconciled (so its controller has written its
	// status), then edited to fail: "I changed it and nothing happened".
	reconciled := func(u *unstructured.Unstructured) {
		t.Helper()
		if err := c.Create(ctx, u); err != nil {
			t.Fatal(err)
		}
		eventually(t, 30*time.Second, u.GetName()+" observed", func(ctx context.Context) error {
			got := u.DeepCopy()
			if err := c.Get(ctx, client.ObjectKeyFromObject(u), got); err != nil {
				return err
			}
			if og, _, _ := unstructured.NestedInt64(got.Object, "status", "observedGeneration"); og != got.GetGeneration() {
				return fmt.Errorf("generation %d, observed %d", got.GetGeneration(), og)
			}
			return nil
		})
	}
	fail := func(u *unstructured.Unstructured) {
		t.Helper()
		if err := c.Get(ctx, client.ObjectKeyFromObject(u), u); err != nil {
			t.Fatal(err)
		}
		u.Object["spec"] = map[string]any{"fail": true}
		if err := c.Update(ctx, u); err != nil {
			t.Fatal(err)
		}
	}
	wOK, wFail, gFail := newWidget(ns, "w-ok", map[string]any{"fail": false}), newWidget(ns, "w-fail", map[string]any{"fail": false}), newGadget(ns, "g-fail", map[string]any{"fail": false})
	for _, u := range []*unstructured.Unstructured{wOK, wFail, gFail} {
		reconciled(u)
	}
	fail(wFail)
	fail(gFail)
	if err := c.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: whyNamespace}}); err != nil {
		t.Fatal(err)
	}
	if err := c.Create(ctx, newGadget(whyNamespace, "g-orphan", map[string]any{"fail": false})); err != nil {
		t.Fatal(err)
	}

	answer := func(args ...string) (*why.Answer, error) {
		var a why.Answer
		return &a, kc.jsonOf(t, &a, admin, append(append([]string{"backoff", "why"}, args...), "-o", "json")...)
	}

	t.Run("reconciled", func(t *testing.T) {
		a, err := answer("widgets.e2e.kubectl-backoff.io/w-ok", "-n", ns)
		if err != nil {
			t.Fatal(err)
		}
		if a.Verdict.Status != why.Current || a.Controller == nil || a.Controller.Rule != why.RuleInstrumented || a.Controller.Name != widgetsController {
			t.Errorf("status %s, controller %+v; want Current, %q found as %s", a.Verdict.Status, a.Controller, widgetsController, why.RuleInstrumented)
		}
		if b := a.Backoff; b == nil || b.Source != why.SourceEndpoint || (b.Key != nil && b.Key.State != api.StateIdle) {
			t.Errorf("backoff %+v; want the endpoint's, the key idle or not tracked", b)
		}
		if !strings.Contains(a.Summary, "nothing to wait for") || len(a.Next) != 0 {
			t.Errorf("summary %q, next %v; want nothing to wait for, no step", a.Summary, a.Next)
		}
	})

	t.Run("failing-endpoint", func(t *testing.T) {
		eventually(t, 30*time.Second, "why w-fail reads its backoff from the endpoint", func(context.Context) error {
			a, err := answer("widget/w-fail", "-n", ns) // the short name kubectl's discovery gives
			if err != nil {
				return err
			}
			switch b := a.Backoff; {
			case a.Verdict.Status != why.InProgress || a.Verdict.Generation != 2 || a.Verdict.ObservedGeneration == nil || *a.Verdict.ObservedGeneration != 1:
				return fmt.Errorf("verdict %+v; want InProgress at generation 2, observed 1", a.Verdict)
			case b == nil || b.Key == nil:
				return fmt.Errorf("no key backoff: %+v (%s)", b, a.BackoffError)
			case b.Source != why.SourceEndpoint || b.Controller != widgetsController:
				return fmt.Errorf("backoff from %s of %q; want the endpoint of %q", b.Source, b.Controller, widgetsController)
			case b.Key.State != api.StateBackoff || b.Key.Failures < 1 || b.Key.NextRetryAt.IsZero():
				return fmt.Errorf("key %s, %d failures, next retry %v; want backoff, failures, a next retry", b.Key.State, b.Key.Failures, b.Key.NextRetryAt)
			}
			return nil
		})
		out := kc.ok(t, admin, "backoff", "why", "widget/w-fail", "-n", ns)
		t.Logf("why widget/w-fail:\n%s", out) // whole, for the README's example
		// The pod's workload is named as inspector names it: its Deployment,
		// through the pod-template-hash its ReplicaSet's name ends in, as
		// for any pod the deployment controller made.
		for _, want := range []string{"Change:      generation 2, changed", "the controller has observed 1",
			`controller "widgets" is failing on it: `, "consecutive failure", ", next retry in ", "(exact)",
			"widget backend refused the spec", whyFix + "widget backend refused the spec", "forget deploy/" + deploymentName + " -n demo demo/w-fail --requeue --controller widgets"} {
			if !strings.Contains(out, want) {
				t.Errorf("why lacks %q:\n%s", want, out)
			}
		}
	})

	t.Run("failing-log", func(t *testing.T) {
		eventually(t, time.Minute, "why g-fail reads its backoff from the log", func(context.Context) error {
			a, err := answer("gadgets.e2e.kubectl-backoff.io/g-fail", "-n", ns)
			if err != nil {
				return err
			}
			switch b, c := a.Backoff, a.Controller; {
			case len(a.Ownership.StatusManagers) == 0 || a.Ownership.StatusManagers[0].Manager != gadgetFieldManager:
				return fmt.Errorf("status managers %+v; want %q", a.Ownership.StatusManagers, gadgetFieldManager)
			case c == nil || c.Rule != why.RuleDeploymentName || c.Target != "deploy/"+deploymentName || c.Namespace != ns:
				return fmt.Errorf("controller %+v; want deploy/%s by %s", c, deploymentName, why.RuleDeploymentName)
			case b == nil || b.Key == nil:
				return fmt.Errorf("no key backoff: %+v (%s)", b, a.BackoffError)
			case b.Source != why.SourceLogs || b.Controller != "gadget" || !b.Key.Estimated:
				return fmt.Errorf("backoff from %s of %q, estimated %v; want the log of \"gadget\", estimated", b.Source, b.Controller, b.Key.Estimated)
			case b.Key.State != api.StateBackoff || b.Key.Failures < 1 || b.Key.NextRetryAt.IsZero():
				return fmt.Errorf("key %s, %d failures, next retry %v; want backoff, failures, a next retry", b.Key.State, b.Key.Failures, b.Key.NextRetryAt)
			case !strings.Contains(b.Note, "runs no controller of kind Gadget"):
				return fmt.Errorf("note %q; want why the log was read", b.Note)
			}
			return nil
		})
		out := kc.ok(t, admin, "backoff", "why", "gadget/g-fail", "-n", ns)
		t.Logf("why gadget/g-fail:\n%s", out)
		for _, want := range []string{`controller "gadget" is failing on it: `, "(estimated)", "quota exceeded", whyFix + "gadget backend refused the spec: quota exceeded",
			"deployment-name: the Deployment is named as the status manager \"demo\"", "kick deploy/demo -n demo --from-logs demo/g-fail"} {
			if !strings.Contains(out, want) {
				t.Errorf("why lacks %q:\n%s", want, out)
			}
		}
	})

	// A chain across CRDs: a Gadget that dependsOn a Widget that fails;
	// both fail, and the Widget — the deeper — is the blocker, answered
	// from its instrumented controller.
	t.Run("chain", func(t *testing.T) {
		g := newGadget(ns, "g-chain", map[string]any{"fail": false, "dependsOn": []any{map[string]any{"kind": "Widget", "name": "w-fail"}}})
		reconciled(g)
		if err := c.Get(ctx, client.ObjectKeyFromObject(g), g); err != nil {
			t.Fatal(err)
		}
		_ = unstructured.SetNestedField(g.Object, true, "spec", "fail")
		if err := c.Update(ctx, g); err != nil {
			t.Fatal(err)
		}
		eventually(t, time.Minute, "why g-chain names the Widget", func(context.Context) error {
			a, err := answer("gadget/g-chain", "-n", ns)
			if err != nil {
				return err
			}
			var blockers []string
			for _, b := range a.Chain.Blockers() {
				blockers = append(blockers, b.Object.Ref())
			}
			switch {
			case strings.Join(blockers, " ") != "widget."+gadgetGVK.Group+"/w-fail":
				return fmt.Errorf("blockers %v; want widget w-fail (summary %q)", blockers, a.Summary)
			case len(a.Blockers) != 1 || a.Blockers[0].Backoff == nil || a.Blockers[0].Backoff.Source != why.SourceEndpoint:
				return fmt.Errorf("blocker answers %+v; want the widget's, from its endpoint", a.Blockers)
			case !strings.Contains(a.Summary, "it waits for widget."+gadgetGVK.Group+"/w-fail (spec.dependsOn)"):
				return fmt.Errorf("summary %q", a.Summary)
			}
			return nil
		})
		t.Logf("why gadget/g-chain:\n%s", kc.ok(t, admin, "backoff", "why", "gadget/g-chain", "-n", ns))
	})

	t.Run("nobody-reconciles", func(t *testing.T) {
		a, err := answer("gadget/g-orphan", "-n", whyNamespace)
		if err != nil {
			t.Fatal(err)
		}
		if a.Controller == nil || a.Controller.Rule != why.RuleNoManager || !strings.Contains(a.Summary, "no status manager was found") || a.Backoff != nil {
			t.Errorf("controller %+v, summary %q, backoff %+v; want no status manager, nothing read", a.Controller, a.Summary, a.Backoff)
		}
	})

	// A user who may read widgets and the namespace's pods, and nothing
	// else why uses: each refused read is one line saying the permission
	// and what it was for, and the answer goes on; a user who may not read
	// the object gets one line, and a failure.
	t.Run("refused", func(t *testing.T) {
		const name = "e2e-why-narrow"
		user, _ := addUser(t, env, dir, name)
		grantRole(ctx, t, cs, ns, "backoff-why-narrow", []rbacv1.PolicyRule{
			{APIGroups: []string{gadgetGVK.Group}, Resources: []string{"widgets"}, Verbs: []string{"get"}},
			{APIGroups: []string{""}, Resources: []string{"pods"}, Verbs: []string{"get", "list"}},
		}, rbacv1.Subject{Kind: rbacv1.UserKind, Name: name})
		out, errOut, err := kc.run(t, user, "backoff", "why", "widget/w-fail", "-n", ns)
		if err != nil {
			t.Fatalf("why with refused reads failed: %v\n%s", err, errOut)
		}
		for _, want := range []string{
			"! you may not list deployments in all namespaces (RBAC): it was needed to find the pods of the status manager",
			"! you may not list pods in all namespaces (RBAC): it was needed to find instrumented pods that reconcile Widget.e2e.kubectl-backoff.io",
			"! you may not list events in namespace demo (RBAC): it was needed to show the object's recent Events",
		} {
			if !strings.Contains(out, want) {
				t.Errorf("why lacks %q:\n%s", want, out)
			}
		}
		_, errOut, err = kc.run(t, user, "backoff", "why", "gadget/g-fail", "-n", ns)
		if want := "you may not read gadgets.e2e.kubectl-backoff.io (RBAC): why needs get and list on the kind"; err == nil || !strings.Contains(errOut, want) || strings.Count(strings.TrimSpace(errOut), "\n") > 0 {
			t.Errorf("why on an object the user may not get: err %v, stderr %q; want one line containing %q", err, errOut, want)
		}
	})

	t.Run("list", func(t *testing.T) {
		out := kc.ok(t, admin, "backoff", "why", "widgets", "-n", ns)
		if !strings.Contains(out, "w-fail") || strings.Contains(out, "w-ok") {
			t.Errorf("why widgets lists the objects not Current: want w-fail, not w-ok:\n%s", out)
		}
	})
}
