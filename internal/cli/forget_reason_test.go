package cli_test

import (
	"context"
	"testing"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/cli"
	"k8s.io/cli-runtime/pkg/genericiooptions"
)

// TestForgetReason: --reason and the user ($USER with --addr) reach the
// key's record, the user marked unverified (the loopback endpoint
// authenticates no one).
func TestForgetReason(t *testing.T) {
	t.Setenv("USER", "alice")
	srv, c := endpoint(t, false)
	if err := run(cli.NewForgetCommand, genericiooptions.NewTestIOStreamsDiscard(), "--addr", srv.URL, "default/w1", "--reason", "dependency restored"); err != nil {
		t.Fatalf("forget --reason: %v", err)
	}
	d, err := c.Key(context.Background(), "widget", "default/w1")
	if err != nil {
		t.Fatal(err)
	}
	if r, want := d.LastReset, "alice"+api.UnverifiedSuffix; r == nil || r.User != want || r.Reason != "dependency restored" {
		t.Errorf("lastReset = %+v, want user %q, reason %q", r, want, "dependency restored")
	}
}
