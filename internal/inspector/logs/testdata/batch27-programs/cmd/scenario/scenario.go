// Package scenario starts envtest's kube-apiserver, makes the faults batch27's
// controllers meet (a ValidatingAdmissionPolicy refusing writes, a referenced
// object missing until later, conflicts, timed requeues) and holds the
// reconcile logic both programs (crsinks, wqsecrets) share, so the two
// families log the same outcomes through their own sinks.
package scenario

import (
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"strconv"
	"sync"
	"time"

	admissionv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
)

// Managed is the label the controllers select their objects by.
const Managed = "sinks26/managed"

// Start starts etcd and kube-apiserver from $KUBEBUILDER_ASSETS.
func Start() (*envtest.Environment, *rest.Config, error) {
	env := &envtest.Environment{BinaryAssetsDirectory: os.Getenv("KUBEBUILDER_ASSETS"), ControlPlaneStartTimeout: 2 * time.Minute}
	env.ControlPlane.GetAPIServer().Configure().Set("advertise-address", "127.0.0.1").Set("endpoint-reconciler-type", "none")
	cfg, err := env.Start()
	return env, cfg, err
}

// Obj is one object of the scenario; Kind is "configmaps" or "secrets".
type obj struct {
	ns, name string
	ann      map[string]string
	at       time.Duration
}

// Kind names what a program reconciles and what its objects reference.
type Kind struct{ Own, Ref string }

func names(k Kind) []obj {
	p := "cm"
	if k.Own == "secrets" {
		p = "sec"
	}
	return []obj{
		{ns: "apps", name: p + "-web"},
		{ns: "frozen", name: p + "-ledger"},
		{ns: "apps", name: p + "-api", ann: map[string]string{"sinks26/ref": "api-token"}},
		{ns: "apps", name: p + "-cache", ann: map[string]string{"sinks26/conflicts": "3"}, at: 4 * time.Second},
		{ns: "apps", name: p + "-rollout", ann: map[string]string{"sinks26/poll-for": "12s"}, at: 4 * time.Second},
		{ns: "frozen", name: p + "-audit", at: 4 * time.Second},
		{ns: "apps", name: p + "-flags", at: 10 * time.Second},
		{ns: "apps", name: p + "-report", ann: map[string]string{"sinks26/ref": "report-token"}, at: 18 * time.Second},
	}
}

// Prepare makes the namespaces and the policy, before the controller starts.
func Prepare(ctx context.Context, cs kubernetes.Interface) error {
	for _, ns := range []*corev1.Namespace{
		{ObjectMeta: metav1.ObjectMeta{Name: "apps"}},
		{ObjectMeta: metav1.ObjectMeta{Name: "frozen", Labels: map[string]string{"freeze": "true"}}},
	} {
		if _, err := cs.CoreV1().Namespaces().Create(ctx, ns, metav1.CreateOptions{}); err != nil {
			return err
		}
	}
	fail := admissionv1.Fail
	p := &admissionv1.ValidatingAdmissionPolicy{ObjectMeta: metav1.ObjectMeta{Name: "change-freeze"},
		Spec: admissionv1.ValidatingAdmissionPolicySpec{FailurePolicy: &fail,
			MatchConstraints: &admissionv1.MatchResources{ResourceRules: []admissionv1.NamedRuleWithOperations{{
				RuleWithOperations: admissionv1.RuleWithOperations{Operations: []admissionv1.OperationType{admissionv1.Update},
					Rule: admissionv1.Rule{APIGroups: []string{""}, APIVersions: []string{"v1"}, Resources: []string{"configmaps", "secrets"}}}}}},
			Validations: []admissionv1.Validation{{Expression: "has(object.metadata.labels) && 'sinks26/exempt' in object.metadata.labels",
				Message: "objects in frozen namespaces are read-only during the change freeze"}}}}
	if _, err := cs.AdmissionregistrationV1().ValidatingAdmissionPolicies().Create(ctx, p, metav1.CreateOptions{}); err != nil {
		return err
	}
	b := &admissionv1.ValidatingAdmissionPolicyBinding{ObjectMeta: metav1.ObjectMeta{Name: "change-freeze"},
		Spec: admissionv1.ValidatingAdmissionPolicyBindingSpec{PolicyName: "change-freeze",
			ValidationActions: []admissionv1.ValidationAction{admissionv1.Deny},
			MatchResources:    &admissionv1.MatchResources{NamespaceSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"freeze": "true"}}}}}
	if _, err := cs.AdmissionregistrationV1().ValidatingAdmissionPolicyBindings().Create(ctx, b, metav1.CreateOptions{}); err != nil {
		return err
	}
	time.Sleep(2 * time.Second) // the policy's informer catches up (a fixture run, not a test)
	return nil
}

// Drive creates the scenario's objects on its timeline from now, and the
// later fixes: the Secret/ConfigMap api-token at 12s, the exempt label on
// the audit object at 22s. It returns at 34s.
func Drive(ctx context.Context, cs kubernetes.Interface, k Kind) {
	t0 := time.Now()
	wait := func(d time.Duration) {
		select {
		case <-ctx.Done():
		case <-time.After(time.Until(t0.Add(d))):
		}
	}
	steps := []func(){}
	at := []time.Duration{}
	for _, o := range names(k) {
		o := o
		at = append(at, o.at)
		steps = append(steps, func() { must(create(ctx, cs, k.Own, o.ns, o.name, map[string]string{Managed: "true"}, o.ann)) })
	}
	at = append(at, 12*time.Second, 22*time.Second)
	steps = append(steps, func() { must(create(ctx, cs, k.Ref, "apps", "api-token", nil, nil)) }, func() {
		p := []byte(`{"metadata":{"labels":{"sinks26/exempt":"true"}}}`)
		name := names(k)[5].name
		var err error
		if k.Own == "configmaps" {
			_, err = cs.CoreV1().ConfigMaps("frozen").Patch(ctx, name, types.MergePatchType, p, metav1.PatchOptions{})
		} else {
			_, err = cs.CoreV1().Secrets("frozen").Patch(ctx, name, types.MergePatchType, p, metav1.PatchOptions{})
		}
		must(err)
	})
	for i, f := range steps {
		wait(at[i])
		f()
	}
	wait(34 * time.Second)
}

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "scenario:", err)
	}
}

func create(ctx context.Context, cs kubernetes.Interface, kind, ns, name string, labels, ann map[string]string) error {
	m := metav1.ObjectMeta{Namespace: ns, Name: name, Labels: labels, Annotations: ann}
	var err error
	if kind == "configmaps" {
		_, err = cs.CoreV1().ConfigMaps(ns).Create(ctx, &corev1.ConfigMap{ObjectMeta: m, Data: map[string]string{"v": name}}, metav1.CreateOptions{})
	} else {
		_, err = cs.CoreV1().Secrets(ns).Create(ctx, &corev1.Secret{ObjectMeta: m, StringData: map[string]string{"v": name}}, metav1.CreateOptions{})
	}
	return err
}

// Reconciler is the logic both programs run for one key.
type Reconciler struct {
	CS   kubernetes.Interface
	Kind Kind
	mu   sync.Mutex
	n    map[string]int
}

// Outcome is what one reconcile decided: an error, a timed requeue, or done.
type Outcome struct {
	RequeueAfter time.Duration
	Synced       bool
}

// Sync reconciles ns/name: reads the referenced object, then stamps the
// object with its hash (an UPDATE the policy may refuse).
func (r *Reconciler) Sync(ctx context.Context, ns, name string) (Outcome, error) {
	r.mu.Lock()
	if r.n == nil {
		r.n = map[string]int{}
	}
	r.n[ns+"/"+name]++
	n := r.n[ns+"/"+name]
	r.mu.Unlock()
	meta, data, err := r.get(ctx, r.Kind.Own, ns, name)
	if apierrors.IsNotFound(err) {
		return Outcome{}, nil
	}
	if err != nil {
		return Outcome{}, err
	}
	if meta.Labels[Managed] != "true" {
		return Outcome{}, nil
	}
	if d, err := time.ParseDuration(meta.Annotations["sinks26/poll-for"]); err == nil && time.Since(meta.CreationTimestamp.Time) < d {
		return Outcome{RequeueAfter: 3 * time.Second}, nil
	}
	sum := sha256.Sum256([]byte(data))
	if ref := meta.Annotations["sinks26/ref"]; ref != "" {
		_, rdata, err := r.get(ctx, r.Kind.Ref, ns, ref)
		if err != nil {
			return Outcome{}, fmt.Errorf("reading referenced %s %s/%s: %w", r.Kind.Ref, ns, ref, err)
		}
		sum = sha256.Sum256([]byte(data + rdata))
	}
	stamp := fmt.Sprintf("%x", sum[:6])
	if meta.Annotations["sinks26/synced"] == stamp {
		return Outcome{Synced: true}, nil
	}
	if c, err := strconv.Atoi(meta.Annotations["sinks26/conflicts"]); err == nil && n <= c {
		// Someone else writes between our read and our write.
		if err := r.patch(ctx, ns, name, fmt.Sprintf(`{"metadata":{"annotations":{"sinks26/bumped":"%d"}}}`, n)); err != nil {
			return Outcome{}, err
		}
	}
	if meta.Annotations == nil {
		meta.Annotations = map[string]string{}
	}
	meta.Annotations["sinks26/synced"] = stamp
	if err := r.update(ctx, meta, data); err != nil {
		return Outcome{}, fmt.Errorf("writing sync stamp: %w", err)
	}
	return Outcome{Synced: true}, nil
}

func (r *Reconciler) get(ctx context.Context, kind, ns, name string) (metav1.ObjectMeta, string, error) {
	if kind == "configmaps" {
		o, err := r.CS.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return metav1.ObjectMeta{}, "", err
		}
		return o.ObjectMeta, o.Data["v"], nil
	}
	o, err := r.CS.CoreV1().Secrets(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return metav1.ObjectMeta{}, "", err
	}
	return o.ObjectMeta, string(o.Data["v"]), nil
}

func (r *Reconciler) patch(ctx context.Context, ns, name, p string) error {
	var err error
	if r.Kind.Own == "configmaps" {
		_, err = r.CS.CoreV1().ConfigMaps(ns).Patch(ctx, name, types.MergePatchType, []byte(p), metav1.PatchOptions{})
	} else {
		_, err = r.CS.CoreV1().Secrets(ns).Patch(ctx, name, types.MergePatchType, []byte(p), metav1.PatchOptions{})
	}
	return err
}

func (r *Reconciler) update(ctx context.Context, m metav1.ObjectMeta, data string) error {
	var err error
	if r.Kind.Own == "configmaps" {
		_, err = r.CS.CoreV1().ConfigMaps(m.Namespace).Update(ctx, &corev1.ConfigMap{ObjectMeta: m, Data: map[string]string{"v": data}}, metav1.UpdateOptions{})
	} else {
		_, err = r.CS.CoreV1().Secrets(m.Namespace).Update(ctx, &corev1.Secret{ObjectMeta: m, Data: map[string][]byte{"v": []byte(data)}}, metav1.UpdateOptions{})
	}
	return err
}
