package inspector

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"

	"github.com/kubectl-backoff/kubectl-backoff/instrument"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/cluster/clustertest"
)

// testPodPort is the pod port forwarded to, the endpoint's default.
const testPodPort = 8082

// newPFEndpoint starts a real instrument endpoint with one controller, "widget":
// what the forwarded pod port serves.
func newPFEndpoint(t *testing.T) string {
	t.Helper()
	reg := instrument.NewRegistry()
	instrument.New("widget", instrument.Options{Registry: reg})
	srv := httptest.NewServer(instrument.NewHandler(instrument.HandlerOptions{Registry: reg}))
	t.Cleanup(srv.Close)
	return srv.Listener.Addr().String()
}

// pfEventually polls cond until it holds, failing the test after 10s.
func pfEventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	tick := time.NewTicker(2 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		<-tick.C
	}
}

// pfCtx is a context that ends with the test, bounded in time.
func pfCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// newFleetEndpoint starts a real instrument endpoint whose one controller,
// name, has failed on each of keys once.
func newFleetEndpoint(t *testing.T, name string, keys ...string) string {
	t.Helper()
	reg := instrument.NewRegistry()
	p := instrument.NewTyped[string](name, instrument.TypedOptions[string]{Registry: reg})
	for _, k := range keys {
		_ = p.Track(k, func() error { return errors.New("dial tcp 10.0.0.1:443: connect: connection refused") })
	}
	srv := httptest.NewServer(instrument.NewHandler(instrument.HandlerOptions{Registry: reg}))
	t.Cleanup(srv.Close)
	return srv.Listener.Addr().String()
}

// fleetPod is a running pod with the backoff port, owned by owner (kind/name).
func fleetPod(ns, name, ownerKind, owner string) *corev1.Pod {
	p := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "manager",
			Ports: []corev1.ContainerPort{{Name: PortName, ContainerPort: testPodPort}}}}},
		Status: corev1.PodStatus{Phase: corev1.PodRunning},
	}
	if ownerKind != "" {
		p.OwnerReferences = []metav1.OwnerReference{{Kind: ownerKind, Name: owner, Controller: new(true)}}
	}
	return p
}

// TestAttachClusterWide attaches with -A to two controllers of two
// workloads, through real port-forwards, and to a pod that cannot be
// reached: the view stands, and names the pod out of reach.
func TestAttachClusterWide(t *testing.T) {
	widgets := newFleetEndpoint(t, "widget", "ops/w1", "ops/w2")
	gadgets := newFleetEndpoint(t, "gadget", "tools/g1")
	// tools/broken is running, but its port-forward is refused: the API
	// server does not know it.
	pf := clustertest.NewPortForwardServer(t, widgets, testPodPort, "ops/ctrl-5d8f-a", "tools/gadget-0")
	pf.Set(func(s *clustertest.PortForwardServer) { s.Backends = map[string]string{"gadget-0": gadgets} })
	pod := fleetPod("ops", "ctrl-5d8f-a", "ReplicaSet", "ctrl-5d8f")
	pod.Labels = map[string]string{"pod-template-hash": "5d8f"}
	cs := fake.NewClientset(pod, fleetPod("tools", "gadget-0", "StatefulSet", "gadget"), fleetPod("tools", "broken", "", ""))
	cfg := AttachConfig{REST: pf.Config(), Clientset: cs, Namespace: "tools", AllNamespaces: true,
		Tunnel: TunnelOptions{Backoff: 10 * time.Millisecond, Max: 20 * time.Millisecond}}
	ctx := pfCtx(t)

	s, err := Attach(ctx, cfg)
	if err != nil {
		t.Fatalf("Attach -A: %v", err)
	}
	defer s.Close()
	workloads := map[string]bool{}
	for _, e := range s.Endpoints() {
		workloads[e.Workload] = true
	}
	if !s.ClusterWide() || len(workloads) != 3 {
		t.Errorf("ClusterWide, workloads = %v, %d; want true, 3", s.ClusterWide(), len(workloads))
	}
	if a, f := s.Found(); a != 3 || f != 3 || s.CapNote() != "" {
		t.Errorf("Found = %d of %d, CapNote %q; want 3 of 3, no note", a, f, s.CapNote())
	}

	var ov *Overview
	pfEventually(t, "both controllers to answer and the broken pod to fail", func() bool {
		ov, err = s.Overview(ctx)
		return err == nil && len(ov.Controllers) == 2 && slices.ContainsFunc(ov.Replicas, func(r Replica) bool { return r.Err != nil })
	})
	var names []string
	for _, c := range ov.Controllers {
		names = append(names, c.Name)
	}
	slices.Sort(names)
	if want := []string{"gadget", "widget"}; !slices.Equal(names, want) {
		t.Errorf("controllers = %v, want %v", names, want)
	}
	for _, r := range ov.Replicas {
		wantWorkload := map[string]string{"ops/ctrl-5d8f-a": "ops/deploy/ctrl", "tools/gadget-0": "tools/sts/gadget", "tools/broken": "tools/pod/broken"}[r.Endpoint]
		if r.Workload != wantWorkload {
			t.Errorf("replica %s: workload %q, want %q", r.Endpoint, r.Workload, wantWorkload)
		}
		if down := r.Endpoint == "tools/broken"; down != (r.Err != nil) || (down && !strings.Contains(r.Err.Error(), "tools/broken")) {
			t.Errorf("replica %s: err %v; want an error naming the pod only for tools/broken", r.Endpoint, r.Err)
		}
	}

	tests := []struct {
		controller string
		want       []string // "pod key"
	}{
		{"", []string{"tools/gadget-0 tools/g1", "ops/ctrl-5d8f-a ops/w1", "ops/ctrl-5d8f-a ops/w2"}}, // by controller, then key
		// The other workloads run no gadget: they add nothing, and fail nothing.
		{"gadget", []string{"tools/gadget-0 tools/g1"}},
	}
	for _, tt := range tests {
		l, err := s.Keys(ctx, KeyQuery{Controller: tt.controller, Sort: api.SortKey})
		if err != nil {
			t.Fatalf("Keys(controller %q): %v", tt.controller, err)
		}
		var got []string
		for _, k := range l.Items {
			got = append(got, k.Pod+" "+k.Key.Key)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("Keys(controller %q) = %v, want %v", tt.controller, got, tt.want)
		}
		if len(l.Unreachable) != 1 || !strings.HasPrefix(l.Unreachable[0], "tools/broken: ") {
			t.Errorf("Keys(controller %q).Unreachable = %q, want one line for tools/broken", tt.controller, l.Unreachable)
		}
	}
	if _, err := s.Keys(ctx, KeyQuery{Controller: "nope"}); err == nil || !strings.Contains(err.Error(), `no controller "nope"`) {
		t.Errorf("Keys(controller nope) error = %v, want the endpoints' no controller", err)
	}
	g, err := s.Errors(ctx, "gadget", api.Filter{})
	if err != nil || len(g.Groups) != 1 || g.Groups[0].Controller != "gadget" {
		t.Errorf("Errors(gadget) = %+v, %v; want gadget's one group, no error", g, err)
	}

	// Without -A, several pods still ask the user to name one.
	cfg.AllNamespaces = false
	if _, err := Attach(ctx, cfg); !isMultiple(err) {
		t.Errorf("Attach without -A over 2 pods: %v, want *MultiplePodsError", err)
	}
}

func isMultiple(err error) bool {
	_, ok := errors.AsType[*MultiplePodsError](err)
	return ok
}

// TestAttachClusterWideCap attaches to at most maxPods and says how many
// were found, and how to narrow the search.
func TestAttachClusterWideCap(t *testing.T) {
	pf := clustertest.NewPortForwardServer(t, newPFEndpoint(t), testPodPort)
	var objs []runtime.Object
	found := maxPods + 3
	for i := range found {
		objs = append(objs, fleetPod(fmt.Sprintf("ns-%02d", i%7), fmt.Sprintf("ctrl-%02d", i), "", ""))
	}
	s, err := Attach(pfCtx(t), AttachConfig{REST: pf.Config(), Clientset: fake.NewClientset(objs...), AllNamespaces: true,
		Tunnel: TunnelOptions{Backoff: time.Hour}})
	if err != nil {
		t.Fatalf("Attach -A: %v", err)
	}
	defer s.Close()
	if a, f := s.Found(); a != maxPods || f != found || len(s.Endpoints()) != maxPods {
		t.Errorf("Found = %d of %d (%d endpoints), want %d of %d", a, f, len(s.Endpoints()), maxPods, found)
	}
	note := s.CapNote()
	for _, want := range []string{fmt.Sprint(found), fmt.Sprint(maxPods), "a selector", "one namespace instead of all"} {
		if !strings.Contains(note, want) {
			t.Errorf("CapNote = %q, want it to contain %q", note, want)
		}
	}
}
