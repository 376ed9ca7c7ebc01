package cli

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"k8s.io/client-go/util/workqueue"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/why"
	"github.com/kubectl-backoff/kubectl-backoff/ui"
)

// forTop is `top --for configmaps -n widgets` on the API server at api.
func forTop(api *httptest.Server) *TopOptions {
	cf := genericclioptions.NewConfigFlags(true)
	cf.APIServer = &api.URL
	ns := "widgets"
	cf.Namespace = &ns
	return &TopOptions{attachOptions: newAttachOptions(cf), IOStreams: genericiooptions.NewTestIOStreamsDiscard(), For: "configmaps"}
}

// rows names the answers of l with their verdicts.
func rows(l *why.List) []string {
	var out []string
	for _, a := range l.Answers {
		out = append(out, a.Object.Name+" "+string(a.Verdict.Status))
	}
	return out
}

// forList is the options top --for opens its view with, and their first
// list; the options' reader is closed when the test ends.
func forList(ctx context.Context, t *testing.T, o *TopOptions) (*ui.ForOptions, *why.List) {
	t.Helper()
	opts, done, err := o.forOptions(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(done)
	l, err := opts.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return opts, l
}

// TestTopForAddr: `top --for configmaps --addr ADDR`, an operator run with
// go run failing on ConfigMap down-1: the live list reads each object's
// key from the endpoint, as `why configmaps --addr` does (it was refused,
// "drop --addr"), and enter on the row opens the key on that endpoint.
func TestTopForAddr(t *testing.T) {
	// An hour's delay: the key is still in backoff when the list asks
	// (the default limiter's 5ms is due, and the key queued, by then).
	ep := FailingEndpoint(t, workqueue.NewTypedItemExponentialFailureRateLimiter[reconcile.Request](time.Hour, time.Hour))

	ctx := context.Background()
	o := forTop(configMapServer(t, "down-1", "settings"))
	o.addr = ep.URL
	if err := o.validateFor(nil); err != nil {
		t.Fatalf("--for configmaps --addr: %v", err)
	}
	opts, l := forList(ctx, t, o)
	if got := rows(l); len(got) != 1 || got[0] != "down-1 InProgress" {
		t.Fatalf("list %q (total %d, note %q); want down-1 InProgress alone (settings is not failed on)", got, l.Total, l.EventsSkipped)
	}
	a := l.Answers[0]
	if a.Controller == nil || a.Controller.Rule != why.RuleAddr || a.Backoff == nil || a.Backoff.Source != why.SourceEndpoint {
		t.Fatalf("down-1's controller %+v, backoff %+v; want the endpoint's", a.Controller, a.Backoff)
	}
	// enter again: the key's detail, on the endpoint named, not a pod.
	s, _, err := opts.Attach(ctx, a.Controller.Namespace, a.Controller.Target)
	if err != nil {
		t.Fatalf("attach to %s: %v", a.Controller.Target, err)
	}
	defer s.Close()
	page, err := s.Keys(ctx, inspector.KeyQuery{Controller: a.Backoff.Controller})
	if err != nil || len(page.Items) != 1 || page.Items[0].Key.Key != "widgets/down-1" {
		t.Errorf("the endpoint's keys: %+v, %v; want widgets/down-1", page, err)
	}
}

// TestTopForAddrOverTheCap: over the objects a list reads keys for, the
// keys are not read, and the list says so, as `why configmaps --addr` says
// it (the view's status line shortens the same note).
func TestTopForAddrOverTheCap(t *testing.T) {
	reg := instrument.NewRegistry()
	log := logr.Discard()
	ep := httptest.NewServer(instrument.NewHandler(instrument.HandlerOptions{Registry: reg, Logger: &log}))
	t.Cleanup(ep.Close)
	names := make([]string, 101)
	for i := range names {
		names[i] = fmt.Sprintf("cm-%d", i)
	}
	ctx := context.Background()
	o := forTop(configMapServer(t, names...))
	o.addr = ep.URL
	_, l := forList(ctx, t, o)
	if l.KeysSkipped != 101 || !strings.Contains(l.EventsSkipped, "the controller's keys of the 101 objects with no status were not read (101 objects, over 100)") {
		t.Errorf("101 ConfigMaps: keys skipped %d, note %q; want all 101 said", l.KeysSkipped, l.EventsSkipped)
	}
}
