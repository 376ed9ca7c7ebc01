package view

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	"k8s.io/client-go/kubernetes/fake"
	"sigs.k8s.io/yaml"

	objwhy "github.com/kubectl-backoff/kubectl-backoff/internal/inspector/why"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/widget"
)

// whyFixture reads an object of why's testdata (its sources in
// internal/inspector/why/testdata/README.md).
func whyFixture(t *testing.T, name string) *unstructured.Unstructured {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "inspector", "why", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	j, err := yaml.YAMLToJSON(b)
	if err != nil {
		t.Fatal(err)
	}
	u := &unstructured.Unstructured{}
	if err := u.UnmarshalJSON(j); err != nil {
		t.Fatal(err)
	}
	return u
}

// fixtureChain is the answer why gives for files[0] in a cluster holding
// files (the chain walked, no controller searched for).
func fixtureChain(t *testing.T, resource string, files ...string) *objwhy.Answer {
	t.Helper()
	listKinds := map[schema.GroupVersionResource]string{}
	byGV := map[string][]metav1.APIResource{}
	var objs []runtime.Object
	for _, f := range files {
		u := whyFixture(t, f)
		if u.GetKind() == "Deployment" {
			u.SetUID("4c0f7b3e-2f0a-4f4e-8e5e-000000000001") // the ReplicaSet's owner (the documentation's object has no uid)
		}
		gvk := u.GroupVersionKind()
		res := strings.ToLower(gvk.Kind) + "s"
		if gvk.Kind == "HelmRepository" {
			res = "helmrepositories"
		}
		gvr := gvk.GroupVersion().WithResource(res)
		if _, ok := listKinds[gvr]; !ok {
			listKinds[gvr] = gvk.Kind + "List"
			byGV[gvk.GroupVersion().String()] = append(byGV[gvk.GroupVersion().String()],
				metav1.APIResource{Name: res, Kind: gvk.Kind, Namespaced: true, Verbs: metav1.Verbs{"get", "list"}})
		}
		objs = append(objs, u)
	}
	listKinds[schema.GroupVersionResource{Version: "v1", Resource: "pods"}] = "PodList"
	byGV["v1"] = append(byGV["v1"], metav1.APIResource{Name: "pods", Kind: "Pod", Namespaced: true, Verbs: metav1.Verbs{"get", "list"}})
	disc := fake.NewClientset()
	for gv, rs := range byGV {
		disc.Resources = append(disc.Resources, &metav1.APIResourceList{GroupVersion: gv, APIResources: rs})
	}
	a := &objwhy.Asker{Graph: &objwhy.Graph{Dynamic: dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(), listKinds, objs...),
		Discovery: disc.Discovery()}, Now: func() time.Time { return time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC) }}
	return a.Ask(context.Background(), objs[0].(*unstructured.Unstructured), resource)
}

// TestChainViewOfFixtures: the chain view draws the chain why walks over
// the projects' own objects: each row its object, how its parent reaches
// it, its verdict, the blocker marked with its line.
func TestChainViewOfFixtures(t *testing.T) {
	for _, tc := range []struct {
		name     string
		resource string
		files    []string
		rows     []string // each a row's start, in order, after the indent
		blocker  string   // the marked row's words
	}{
		{name: "deployment whose replicaset the quota refuses", resource: "deployments",
			files:   []string{"deployment-replicafailure.yaml", "chain/replicaset-quota.yaml"},
			rows:    []string{"deployment.apps/nginx-deployment  InProgress", "  replicaset.apps/nginx-deployment-4262182780 [owner reference]  InProgress  ← blocker"},
			blocker: "ReplicaFailure=True (FailedCreate): pods \"nginx-deployment-4262182780-\" is forbidden: exceeded quota: object-counts, requested: pods=1, used: pods=3, limited: pods=2"},
		{name: "flux helmrelease, its chart, its repository", resource: "helmreleases",
			files: []string{"chain/flux-helmrelease-test.yaml", "chain/flux-helmchart-default-test.yaml", "chain/flux-helmrepository-test.yaml"},
			rows: []string{"helmrelease.helm.toolkit.fluxcd.io/test  InProgress", "  helmchart.source.toolkit.fluxcd.io/default-test [status.helmChart]  InProgress",
				"    helmrepository.source.toolkit.fluxcd.io/test [spec.sourceRef]  InProgress  ← blocker"},
			blocker: "401 Unauthorized"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ans := fixtureChain(t, tc.resource, tc.files...)
			c := &Common{Width: 400, Height: 20, Styles: widget.NewStyles(true), Keys: NewKeyMap(), Opts: Options{Clock: time.Now}, SeenMarks: map[string]bool{}}
			v, cmd := NewChain(c, ans, ans)
			if cmd != nil {
				t.Fatal("the view asked again for a chain it was given")
			}
			lines := strings.Split(ansi.Strip(v.Render()), "\n")
			if len(lines) < 3+len(tc.rows) {
				t.Fatalf("screen:\n%s", strings.Join(lines, "\n"))
			}
			if want := "1 blocker"; !strings.Contains(lines[1], want) {
				t.Errorf("status line %q lacks %q", lines[1], want)
			}
			for i, want := range tc.rows {
				if got := lines[3+i][len(widget.SelectedMark(i == 0)):]; !strings.HasPrefix(got, want) { // the mark, then the row
					t.Errorf("row %d\n %q\nwant it to start\n %q", i, got, want)
				}
			}
			if last := lines[2+len(tc.rows)]; !strings.Contains(last, tc.blocker) {
				t.Errorf("the blocker's row %q lacks %q", last, tc.blocker)
			}
		})
	}
}
