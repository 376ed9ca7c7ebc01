package ui

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/describe"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
	objwhy "github.com/kubectl-backoff/kubectl-backoff/internal/inspector/why"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/view"
)

// realKeys are controllers, keys and errors as real projects logged them,
// verbatim from the log excerpts in internal/inspector/logs/testdata/wild
// (each file's source is in its README): names far longer than the demo's,
// a cluster-scoped key, Crossplane's controller name with a comma in it.
var realKeys = []struct {
	file, ctl, key, err string
	fails               int
}{
	{"rancher-turtles-2321.log", "topology/cluster", "capi-clusters/docker-rke2-example",
		"error reconciling the Cluster topology: failed to reconcile DockerMachineTemplate capi-clusters/docker-rke2-example-mzztq: failed to get spec.machineTemplate.infrastructureRef.apiVersion from RKE2ControlPlane", 9},
	{"flux2-4811.log", "kustomization", "flux-system/flux-system",
		`Get "http://source-controller.flux-system.svc.cluster.local./gitrepository/flux-system/flux-system/c7313dec48a666d0386d25ef24226e84befb1287.tar.gz": dial tcp 10.43.89.232:80: connect: connection refused`, 6},
	{"cert-manager-3594.log", "certificates-revision-manager", "app-develop/mongo.develop.mydomain.com-tls",
		`certificate.cert-manager.io "mongo.develop.mydomain.com-tls" not found`, 4},
	{"karpenter-2351.log", "provisioner", "default",
		`patching provisioner, Internal error occurred: failed calling webhook "defaulting.webhook.provisioners.karpenter.sh": failed to call webhook: Post "https://karpenter.karpenter.svc:443/default-resource?timeout=10s": no endpoints available for service "karpenter"`, 12},
	{"crossplane-4099.log", "managed/cloudplatform.gcp.upbound.io/v1beta1, kind=serviceaccount", "/sample-bucket-1-v7t6x-6276p",
		"too many fields within: grafana-dashboard-bucket_replicate_", 3},
}

// realDataset is realKeys as the endpoint would list them, backing off.
func realDataset() (*inspector.Overview, *inspector.KeyList) {
	ov := &inspector.Overview{ServerTime: t0, Replicas: fixedOverview().Replicas}
	page := &inspector.KeyList{ServerTime: t0, Total: len(realKeys), Matched: len(realKeys)}
	for i, r := range realKeys {
		next := time.Duration(i+1) * 7 * time.Second
		page.Items = append(page.Items, fixedKey(r.ctl, r.key, api.StateBackoff, r.fails, next, 5*time.Millisecond<<r.fails, "item-exponential", r.err))
		ov.Controllers = append(ov.Controllers, api.Controller{
			Name: r.ctl, Active: true, Keys: 1, Counts: map[api.State]int{api.StateBackoff: 1},
			Limiter: api.Limiter{Description: "item-exponential 5ms..16m40s", Components: []api.LimiterComponent{
				{Name: "item-exponential", BaseDelay: dur(5 * time.Millisecond), MaxDelay: dur(1000 * time.Second)}}},
			Capabilities: api.Capabilities{CanForget: true, CanRequeue: true},
		})
	}
	return ov, page
}

// realGroups is v1/errors over realDataset: one group per key.
func realGroups() view.GroupsFetchedMsg {
	l := &api.ErrorGroupList{ServerTime: t0, Total: len(realKeys), Matched: len(realKeys)}
	for i, r := range realKeys {
		l.Groups = append(l.Groups, api.ErrorGroup{Controller: r.ctl, Fingerprint: r.err, Message: r.err, Class: api.ClassTransient,
			Count: 1, FirstSeen: t0.Add(-time.Hour), LastSeen: t0.Add(-time.Duration(i*11+1) * 197 * time.Second), Examples: []string{r.key}})
	}
	return view.GroupsFetchedMsg{Seq: 1, List: l, FetchedAt: t0}
}

// realLoaded is the top view at w×h over realDataset.
func realLoaded(t *testing.T, w, h int) Model {
	t.Helper()
	m := newModel(context.Background(), view.Options{Clock: fixedClock, Context: "kind-prod"})
	m = send(t, m, tea.WindowSizeMsg{Width: w, Height: h})
	ov, page := realDataset()
	return send(t, m, view.RefreshedMsg{Seq: m.tbl().Seq, Overview: ov, Page: page, FetchedAt: t0})
}

// realDetail is the key detail of the Flux key, its long URL error and all.
func realDetail(t *testing.T, m Model) Model {
	t.Helper()
	ov, page := realDataset()
	k := page.Items[1]
	det := &inspector.PodKeyDetail{KeyDetail: api.KeyDetail{ServerTime: t0, Key: k.Key}}
	at := t0.Add(-10 * time.Minute)
	for i := range k.Key.Failures {
		d := 5 * time.Millisecond << (i + 1)
		det.History = append(det.History, api.Attempt{At: at, Outcome: "error", Delay: dur(d), Error: k.Key.LastError.Message, Duration: dur(40 * time.Millisecond)})
		at = at.Add(d)
	}
	d := &describe.Description{Key: det, Controller: ov.Controller(k.Key.Controller)}
	d.Diagnosis = explain.Explain(explain.Input{Key: det.Key, Controller: d.Controller, Now: t0})
	m.pushView(modeDetail, view.Detail{C: m.c, Controller: k.Key.Controller, Key: k.Key.Key})
	return send(t, m, view.DetailFetchedMsg{Controller: k.Key.Controller, Key: k.Key.Key, Data: d, FetchedAt: t0})
}

// Real-world names and errors at the three common sizes: goldens of the
// top, detail and group views, no line past the screen's edge, no key cut
// at its namespace, and every key's error keeps its end, where the cause is.
func TestGoldenRealNames(t *testing.T) {
	for _, sz := range []struct {
		name string
		w, h int
	}{{"60x20", 60, 20}, {"80x24", 80, 24}, {"120x40", 120, 40}} {
		m := realLoaded(t, sz.w, sz.h)
		views := map[string]Model{"top": m, "detail": realDetail(t, m), "group": send(t, m, press("g"), realGroups())}
		for _, name := range []string{"top", "detail", "group"} {
			t.Run(name+"_"+sz.name, func(t *testing.T) {
				s := screen(views[name])
				golden.RequireEqual(t, s)
				for i, l := range splitLines(s) {
					if w := ansi.StringWidth(l); w > sz.w {
						t.Errorf("line %d is %d wide: %q", i, w, l)
					}
				}
			})
		}
		top := screen(m)
		for _, r := range realKeys {
			ns, _, _ := strings.Cut(r.key, "/")
			if ns != "" && strings.Contains(top, ns[:min(4, len(ns))]+"…") {
				t.Errorf("%s: a key of %s is cut at its namespace:\n%s", sz.name, ns, top)
			}
		}
		// The group view keeps each error's end: its cause.
		g := screen(views["group"])
		for _, r := range realKeys {
			end := r.err[len(r.err)-min(len(r.err), 6):]
			if !strings.Contains(g, end) {
				t.Errorf("%s: the group view lost the end %q of %q:\n%s", sz.name, end, r.err, g)
			}
		}
	}
}

// realForCluster is forCluster over a verbatim Cluster API MachineDeployment
// (internal/inspector/why/testdata, source in its README): a namespace and
// name of twenty cells each, and conditions as the project writes them.
func realForCluster(t *testing.T) *forCluster {
	t.Helper()
	raw, err := os.ReadFile("../internal/inspector/why/testdata/capi-machinedeployment-rollingout.yaml")
	if err != nil {
		t.Fatal(err)
	}
	// As the API server sends it: JSON, whose integers unstructured keeps as int64.
	j, err := yaml.YAMLToJSON(raw)
	if err != nil {
		t.Fatal(err)
	}
	u := &unstructured.Unstructured{}
	if err := u.UnmarshalJSON(j); err != nil {
		t.Fatal(err)
	}
	f := newForCluster()
	f.items = []objwhy.Item{{Object: u, Resource: "machinedeployments"}}
	return f
}

// The --for list and its answer over a real object, at the three sizes.
func TestGoldenRealNamesFor(t *testing.T) {
	for _, sz := range []struct {
		name string
		w, h int
	}{{"60x20", 60, 20}, {"80x24", 80, 24}, {"120x40", 120, 40}} {
		t.Run("for_"+sz.name, func(t *testing.T) {
			f := newModel(context.Background(), view.Options{Clock: fixedClock, For: &view.ForOptions{Type: "machinedeployments", List: realForCluster(t).list, AllNamespaces: true}})
			f = send(t, f, tea.WindowSizeMsg{Width: sz.w, Height: sz.h})
			f = runFor(t, f, f.refreshFor())
			for name, s := range map[string]string{"list": screen(f), "answer": screen(send(t, f, press("enter")))} {
				t.Run(name, func(t *testing.T) {
					golden.RequireEqual(t, s)
					for i, l := range splitLines(s) {
						if w := ansi.StringWidth(l); w > sz.w {
							t.Errorf("line %d is %d wide: %q", i, w, l)
						}
					}
				})
			}
		})
	}
}
