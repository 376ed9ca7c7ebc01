package inspector_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/describe"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
)

// TestDescribeFindsTheController: describe KEY without a controller looks
// in every controller of a real endpoint.
func TestDescribeFindsTheController(t *testing.T) {
	r := newReplica(t, instrument.HandlerOptions{})
	r.controller("widget").fail(t, "default/w1", 2, "boom")
	gadget := r.controller("gadget")
	gadget.fail(t, "default/g1", 1, "bang")
	gadget.fail(t, "demo/x1", 1, "bang")
	gadget.fail(t, "default/g2", 1, "blocked by default/x1") // named in an error, not a key
	r.controller("gizmo").fail(t, "default/w1", 1, "pow")
	s, err := inspector.Direct(r.srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()

	d, err := describe.Describe(ctx, s, "", "default/g1", nil)
	if err != nil || d.Key.Controller != "gadget" || d.Key.Failures != 1 {
		t.Fatalf("Describe default/g1 without a controller: %v, %+v; want gadget's key", err, d)
	}

	_, err = describe.Describe(ctx, s, "", "default/w1", nil)
	var amb *inspector.AmbiguousKeyError
	if !errors.As(err, &amb) || !slices.Equal(amb.Controllers, []string{"gizmo", "widget"}) && !slices.Equal(amb.Controllers, []string{"widget", "gizmo"}) {
		t.Errorf("Describe default/w1 (in two controllers): error = %v, want an AmbiguousKeyError naming widget and gizmo", err)
	}

	_, err = describe.Describe(ctx, s, "", "default/nope", nil)
	var nf *inspector.KeyNotFoundError
	if !errors.As(err, &nf) || len(nf.Controllers) != 3 || !strings.Contains(err.Error(), `no controller tracks key "default/nope"`) {
		t.Errorf("Describe default/nope: error = %v, want a KeyNotFoundError listing the 3 controllers", err)
	}
	// A key without its namespace (-n does not qualify keys) says how keys
	// read: with the tracked keys of that name when there are, else an example.
	for _, tt := range []struct{ key, want string }{
		{"w1", `no controller tracks key "w1" (controllers: gadget, gizmo, widget); a namespaced object's key is NAMESPACE/NAME: did you mean default/w1?`},
		{"x1", "a namespaced object's key is NAMESPACE/NAME: did you mean demo/x1?"},
		{"nope", "a namespaced object's key is NAMESPACE/NAME, e.g. default/nope"},
	} {
		_, err = describe.Describe(ctx, s, "", tt.key, nil)
		if err == nil || !strings.HasSuffix(err.Error(), tt.want) {
			t.Errorf("Describe %s: error = %v, want it to end %q", tt.key, err, tt.want)
		}
	}
}

// TestDescribeSuggestsTheNamespaceOfOneController: with one controller, a
// key without its namespace is suggested too; a cluster-scoped key (no
// namespace) is still found.
func TestDescribeSuggestsTheNamespaceOfOneController(t *testing.T) {
	r := newReplica(t, instrument.HandlerOptions{})
	widget := r.controller("widget")
	widget.fail(t, "demo/w1", 2, "boom")
	widget.fail(t, "cluster-wide", 1, "boom")
	s, err := inspector.Direct(r.srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = describe.Describe(context.Background(), s, "", "w1", nil)
	if want := `no controller tracks key "w1" (controllers: widget); a namespaced object's key is NAMESPACE/NAME: did you mean demo/w1?`; err == nil || err.Error() != want {
		t.Errorf("Describe w1: error = %v, want %q", err, want)
	}
	if d, err := describe.Describe(context.Background(), s, "", "cluster-wide", nil); err != nil || d.Key.Failures != 1 {
		t.Errorf("Describe cluster-wide: %v; want the cluster-scoped key", err)
	}
	// A cluster-scoped key typed in part is suggested whole, not as
	// "default/cluster-w" (batch3's wrangler log: machines.cluster.x-k8s
	// for machines.cluster.x-k8s.io).
	_, err = describe.Describe(context.Background(), s, "", "cluster-w", nil)
	if want := `no controller tracks key "cluster-w" (controllers: widget); did you mean cluster-wide?`; err == nil || err.Error() != want {
		t.Errorf("Describe cluster-w: error = %v, want %q", err, want)
	}
}

// TestDiagnoseControllersOnAnEndpoint: the session diagnoses a real
// endpoint's controllers; a server without v1/errors still gets one.
func TestDiagnoseControllersOnAnEndpoint(t *testing.T) {
	r := newReplica(t, instrument.HandlerOptions{})
	r.controller("widget").fail(t, "default/w1", 2, "boom")
	r.controller("gadget").succeed("default/g1")
	s, err := inspector.Direct(r.srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	ds, err := describe.DiagnoseControllers(context.Background(), s, "")
	if err != nil {
		t.Fatalf("DiagnoseControllers: %v", err)
	}
	got := map[string]string{}
	for _, d := range ds {
		got[d.Controller] = d.Situation
	}
	if len(ds) != 2 || got["gadget"] != explain.SituationHealthy || got["widget"] == explain.SituationHealthy || got["widget"] == "" {
		t.Errorf("DiagnoseControllers = %+v, want gadget healthy and widget failing", ds)
	}
	one, err := describe.DiagnoseControllers(context.Background(), s, "widget")
	if err != nil || len(one) != 1 || one[0].Controller != "widget" {
		t.Errorf("DiagnoseControllers(widget) = %+v, %v; want widget's alone", one, err)
	}
	if _, err := describe.DiagnoseControllers(context.Background(), s, "nope"); err == nil || !strings.Contains(err.Error(), `no controller "nope"`) {
		t.Errorf("DiagnoseControllers(nope): error = %v, want one naming it and the known ones", err)
	}
}

// With no controllers at all, the error says so for what was read, rather
// than listing none: "(controllers: )".
func TestKeyNotFoundWithNoControllers(t *testing.T) {
	for _, tt := range []struct {
		source string
		log    bool
		want   string
	}{
		{"logs: EMPTY", true, `no controller tracks key "demo/x": the log EMPTY holds no keys of any controller`},
		{"127.0.0.1:8082", false, `no controller tracks key "demo/x": the endpoint at 127.0.0.1:8082 has no controllers yet`},
	} {
		err := &inspector.KeyNotFoundError{Key: "demo/x", Source: tt.source, Log: tt.log}
		if got := err.Error(); !strings.HasPrefix(got, tt.want) {
			t.Errorf("source %q: %q, want it to begin %q", tt.source, got, tt.want)
		}
	}
}

// A forget resets the failure streak, not the run of the same error: the
// transient finding dates the run from its first attempt, not from the
// streak's start a moment ago (it said "the same on the last 13 attempts
// since 10:52:58 (1ms)").
func TestTransientRunSpansAForget(t *testing.T) {
	const msg = "GET https://inventory/v1/items: 503 Service Unavailable"
	r := newReplica(t, instrument.HandlerOptions{})
	w := r.controller("widget")
	first := r.clock.Now()
	for range 6 {
		w.fail(t, "default/w1", 1, msg)
		r.clock.Step(time.Minute)
	}
	s := inspector.NewSession([]*inspector.Endpoint{r.endpoint(t, "ctrl-0")}, nil)
	ctx := context.Background()
	if _, err := s.Forget(ctx, api.ForgetRequest{Controller: "widget", Keys: []string{"default/w1"}}); err != nil {
		t.Fatalf("Forget: %v", err)
	}
	r.clock.Step(time.Minute)
	w.fail(t, "default/w1", 2, msg)

	d, err := describe.Describe(ctx, s, "widget", "default/w1", nil)
	if err != nil {
		t.Fatalf("Describe: %v", err)
	}
	if k := d.Key.Key; k.Failures != 2 || k.SameErrorCount != 8 {
		t.Fatalf("failures %d, same error ×%d; want 2 and 8 (the run spans the forget)", k.Failures, k.SameErrorCount)
	}
	var finding string
	for _, f := range d.Diagnosis.Findings {
		if f.Code == explain.FindingTransient {
			finding = f.Message
		}
	}
	want := "the same on the last 8 attempts since " + first.UTC().Format("15:04:05") + " (7m0s)"
	if !strings.Contains(finding, want) {
		t.Errorf("transient finding = %q, want it to contain %q", finding, want)
	}
}
