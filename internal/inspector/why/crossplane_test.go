package why

import (
	"strings"
	"testing"
)

// TestDebugOnlyFailures: a provider's default log has no line for a
// Crossplane resource whose sync fails (its failures are debug lines), so
// the answer says why instead of "it has not failed on it"; any other
// object's "not tracked" stays as the log said it.
func TestDebugOnlyFailures(t *testing.T) {
	ctl := &Controller{Target: "deploy/provider-gcp-compute", Namespace: "crossplane-system"}
	notTracked := func() *Backoff {
		return &Backoff{Source: SourceLogs, NotTracked: "the log of deploy/provider-gcp-compute (the last 1h0m0s) has no reconcile line for message-processor-app: " +
			"at the default verbosity only failures are logged, so it has not failed on it"}
	}
	failed := Judge(load(t, "crossplane-managedsslcertificate-syncfailed.yaml"))
	got := debugOnlyFailures(notTracked(), failed, ctl).NotTracked
	if !strings.Contains(got, "logs a failed sync only when it runs with --debug") || strings.Contains(got, "has not failed on it") {
		t.Errorf("Crossplane resource failing its sync: %q; want it to say the failures are logged only with --debug", got)
	}
	ready := Judge(load(t, "flux-kustomization-ready.yaml"))
	if got, want := debugOnlyFailures(notTracked(), ready, ctl).NotTracked, notTracked().NotTracked; got != want {
		t.Errorf("a Flux Kustomization: %q, want the log's words %q", got, want)
	}
	endpoint := &Backoff{Source: SourceEndpoint, NotTracked: "controller tracks no key"}
	if got := debugOnlyFailures(endpoint, failed, ctl); got != endpoint {
		t.Errorf("an endpoint's answer was changed: %+v", got)
	}
}
