package why

import (
	"context"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/cluster"
)

var secretGK = schema.GroupKind{Kind: "Secret"}

// secretOperator is a cluster where an instrumented pod runs a controller
// "secret" of kind Secret, and another runs a Widget's: a controller that
// writes no status (the README's instrument set-up, For(&corev1.Secret{})).
func secretOperator() *Finder {
	cs := fake.NewClientset(
		runningPod("my-system", "secret-ctrl-0", nil, true),
		runningPod("widgets", "widget-operator-0", nil, true),
	)
	runs := map[string][]api.Controller{
		"my-system/secret-ctrl-0":   {{Name: "secret", Kind: &api.GroupVersionKind{Version: "v1", Kind: "Secret"}}},
		"widgets/widget-operator-0": {{Name: "widget", Kind: &api.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Widget"}}},
	}
	return &Finder{Core: cs, Probe: func(_ context.Context, p cluster.Pod) ([]api.Controller, error) {
		return runs[p.String()], nil
	}}
}

// TestFindNoManagerByKind: an object whose status nobody wrote (a Secret,
// which has none) is still reconciled: the instrumented pod that runs a
// controller of its kind is found, as the README says of Options.Scheme
// ("why and kick find the controller of an object by that kind"). Seen as
// "Current: a Secret has no status, and no controller was found" while
// that controller failed on it. A kind no instrumented pod runs still has
// no status manager.
func TestFindNoManagerByKind(t *testing.T) {
	c, refused := secretOperator().Find(context.Background(), secretGK, nil, nil)
	if c.Rule != RuleInstrumented || c.Namespace != "my-system" || c.Target != "pod/secret-ctrl-0" || c.Name != "secret" || !c.Instrumented || len(refused) != 0 {
		t.Errorf("got %+v, refused %v; want the secret controller's pod by %s", c, refused, RuleInstrumented)
	}
	if !strings.Contains(c.How, "managedFields name no status manager") {
		t.Errorf("how %q; want it to say managedFields name no status manager", c.How)
	}
	c, _ = secretOperator().Find(context.Background(), schema.GroupKind{Kind: "ConfigMap"}, nil, nil)
	if c.Rule != RuleNoManager || c.Found() {
		t.Errorf("ConfigMap: got %+v; want %s, not found", c, RuleNoManager)
	}
}

// TestAskNoManagerByKind: why secret/db answers from that controller's
// endpoint: it is failing on the key.
func TestAskNoManagerByKind(t *testing.T) {
	keys := &fakeKeys{endpoint: &Backoff{Source: SourceEndpoint, Controller: "secret", Key: &api.Key{
		Controller: "secret", Key: "team-a/db", State: api.StateBackoff, Failures: 11,
		NextRetryAt: now.Add(5 * time.Second), LastError: &api.ErrorRecord{Message: "secret has no password key", At: now}}}}
	a := &Asker{Finder: secretOperator(), Keys: keys, Now: func() time.Time { return now }}
	u := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Secret",
		"metadata": map[string]any{"name": "db", "namespace": "team-a"}, "data": map[string]any{"user": "eA=="}}}
	ans := a.Ask(context.Background(), u, "secrets")
	if len(keys.asked) != 1 || keys.asked[0] != "endpoint my-system/pod/secret-ctrl-0" {
		t.Errorf("asked %v; want the secret controller's endpoint", keys.asked)
	}
	if !strings.HasPrefix(ans.Summary, `InProgress: controller "secret" is failing on it`) {
		t.Errorf("summary %q; want the controller failing on it", ans.Summary)
	}
}

// keyedKeys is an endpoint that tracks the keys of a map.
type keyedKeys map[string]*api.Key

func (k keyedKeys) Endpoint(_ context.Context, _ *Controller, _ schema.GroupKind, key string) (*Backoff, error) {
	if d := k[key]; d != nil {
		return &Backoff{Source: SourceEndpoint, Controller: d.Controller, Key: d}, nil
	}
	return &Backoff{Source: SourceEndpoint, Controller: "secret", NotTracked: "not tracked"}, nil
}

func (keyedKeys) Logs(context.Context, *Controller, string) (*Backoff, error) { return nil, nil }

// TestListNoManagerByKind: `why secrets` lists the Secret the instrumented
// controller fails on, as `why secret/db` answers it, not "all 2 secrets
// are Current"; without an instrumented controller of the kind, none.
func TestListNoManagerByKind(t *testing.T) {
	secret := func(name string) Item {
		return Item{Resource: "secrets", Object: &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Secret",
			"metadata": map[string]any{"name": name, "namespace": "team-a"}, "data": map[string]any{"user": "eA=="}}}}
	}
	keys := keyedKeys{"team-a/db": {Controller: "secret", Key: "team-a/db", State: api.StateBackoff, Failures: 11,
		NextRetryAt: now.Add(5 * time.Second), LastError: &api.ErrorRecord{Message: "secret has no password key", At: now}}}
	items := []Item{secret("db"), secret("ok")}
	l := (&Asker{Finder: secretOperator(), Keys: keys, Now: func() time.Time { return now }}).List(context.Background(), items)
	if len(l.Answers) != 1 || l.Answers[0].Object.Name != "db" || l.Answers[0].Verdict.Status != InProgress {
		var got []string
		for _, ans := range l.Answers {
			got = append(got, ans.Object.Name+" "+string(ans.Verdict.Status))
		}
		t.Errorf("answers %q; want db InProgress alone", got)
	}
	nobody := &Finder{Core: fake.NewClientset(), Probe: secretOperator().Probe}
	if l := (&Asker{Finder: nobody, Keys: keys, Now: func() time.Time { return now }}).List(context.Background(), items); len(l.Answers) != 0 {
		t.Errorf("no instrumented pod: %d answers; want none", len(l.Answers))
	}
}

// TestFindByKindOneWorkloadSeveralControllers: a pod that runs several
// controllers of the kind (the demo runs six over ConfigMaps) is one
// workload, found, not "6 instrumented workloads run a controller of kind
// ConfigMap (the same pod six times)": the key's reader asks each of them.
func TestFindByKindOneWorkloadSeveralControllers(t *testing.T) {
	cm := &api.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}
	f := &Finder{Core: fake.NewClientset(runningPod("demo", "demo-0", nil, true)), Probe: func(context.Context, cluster.Pod) ([]api.Controller, error) {
		return []api.Controller{{Name: "outage", Kind: cm}, {Name: "naive", Kind: cm}, {Name: "slow", Kind: cm}}, nil
	}}
	c, _ := f.Find(context.Background(), schema.GroupKind{Kind: "ConfigMap"}, nil, nil)
	if c.Rule != RuleInstrumented || c.Target != "pod/demo-0" || c.Name != "" || len(c.Candidates) != 0 {
		t.Errorf("got %+v; want the one pod by %s, no controller named (each is asked for the key)", c, RuleInstrumented)
	}
	if !strings.Contains(c.How, "runs 3 controllers of kind ConfigMap (outage, naive, slow)") {
		t.Errorf("how %q; want the three controllers named", c.How)
	}
}

// TestAskNoManagerByKindNotTracked: the Secret's controller was found and
// asked, and has not failed on it: the answer says so, not "no controller
// was found reporting on it ... name its pods with --controller-pod".
func TestAskNoManagerByKindNotTracked(t *testing.T) {
	a := &Asker{Finder: secretOperator(), Keys: keyedKeys{}, Now: func() time.Time { return now }}
	u := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Secret",
		"metadata": map[string]any{"name": "ok", "namespace": "team-a"}, "data": map[string]any{"password": "eA=="}}}
	ans := a.Ask(context.Background(), u, "secrets")
	all := ans.Summary + strings.Join(ans.Next, "\n")
	if ans.Verdict.Status != Current || !strings.Contains(ans.Summary, "its controller has not failed on it (not tracked)") || strings.Contains(all, "no controller was found") {
		t.Errorf("status %s, summary %q, next %q; want Current, its controller not failing on it", ans.Verdict.Status, ans.Summary, ans.Next)
	}
}

// TestFindReadsPodsOncePerList: a list of objects of one controller finds
// it once and reads its pod once, not once an object (40 ConfigMaps took
// 16s at client-go's 5 requests a second, 8s of them reading one pod).
func TestFindReadsPodsOncePerList(t *testing.T) {
	f := secretOperator()
	gets := 0
	f.Core.(*fake.Clientset).PrependReactor("get", "pods", func(k8stesting.Action) (bool, runtime.Object, error) {
		gets++
		return false, nil, nil
	})
	for range 40 {
		if c, _ := f.Find(context.Background(), secretGK, nil, nil); c.Rule != RuleInstrumented || c.NotRunning != "" {
			t.Fatalf("got %+v; want the running secret controller", c)
		}
	}
	if gets != 1 {
		t.Errorf("%d reads of its pod for 40 objects; want 1", gets)
	}
}

// TestControllerNameOfSeveral: a list's CONTROLLER for an object whose pod
// runs several controllers of its kind is the one that has the key, not
// "-" (seen on `why configmaps` over the demo).
func TestControllerNameOfSeveral(t *testing.T) {
	a := &Answer{Controller: &Controller{Rule: RuleInstrumented, Namespace: "demo", Target: "pod/demo-0", Instrumented: true},
		Backoff: &Backoff{Source: SourceEndpoint, Controller: "naive", Key: &api.Key{Controller: "naive", Key: "demo/naive-00001", State: api.StateBackoff}}}
	if got := a.ControllerName(); got != "naive" {
		t.Errorf("ControllerName = %q, want naive", got)
	}
}
