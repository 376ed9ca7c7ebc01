package cli_test

import (
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-backoff/kubectl-backoff/internal/cli"
)

// TestErrorsANewcomerCanActOn: the first errors a newcomer meets say what
// to do, in one line, in the flags' names.
func TestErrorsANewcomerCanActOn(t *testing.T) {
	srv, _ := endpoint(t, false)
	t.Setenv("KUBECONFIG", "/nonexistent")
	t.Setenv("KUBERNETES_SERVICE_HOST", "")
	tests := []struct {
		name   string
		newCmd newCommand
		args   []string
		want   string
	}{
		{"no kubeconfig", cli.NewGetCommand, nil,
			"no cluster configured: KUBECONFIG=/nonexistent names no file that exists; pass --kubeconfig/--context, or --addr to talk to an endpoint directly"},
		{"no kubeconfig, describe", cli.NewDescribeCommand, []string{"default/w1"},
			"no cluster configured: KUBECONFIG=/nonexistent names no file that exists; pass --kubeconfig/--context, or --addr"},
		{"connection refused", cli.NewGetCommand, []string{"--addr", "127.0.0.1:1"},
			"cannot connect to 127.0.0.1:1: connection refused; is an endpoint listening there? `kubectl backoff demo` serves one on 127.0.0.1:8082"},
		{"connection refused, forget", cli.NewForgetCommand, []string{"--addr", "127.0.0.1:1", "default/w1"},
			"cannot connect to 127.0.0.1:1: connection refused"},
		{"https to a plain-http endpoint", cli.NewGetCommand, []string{"--addr", strings.Replace(srv.URL, "http://", "https://", 1)},
			"cannot talk https to " + strings.TrimPrefix(srv.URL, "http://") + ": it answers plain http; use --addr " + srv.URL},
		{"https to a plain-http endpoint, describe", cli.NewDescribeCommand, []string{"--addr", strings.Replace(srv.URL, "http://", "https://", 1), "default/w1"},
			"cannot talk https to " + strings.TrimPrefix(srv.URL, "http://") + ": it answers plain http; use --addr " + srv.URL},
		{"a bad regular expression names -q", cli.NewGetCommand, []string{"--addr", srv.URL, "-q", "~("},
			`-q/--filter: "(" is not a regular expression`},
		{"an unknown controller names --controller", cli.NewGetCommand, []string{"--addr", srv.URL, "--controller", "nope"},
			`no controller "nope"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := run(tt.newCmd, genericiooptions.NewTestIOStreamsDiscard(), tt.args...)
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Fatalf("%v: error = %v, want one beginning %q", tt.args, err, tt.want)
			}
			if msg := err.Error(); strings.Contains(msg, "\n") || strings.Count(msg, "127.0.0.1:1") > 1 {
				t.Errorf("%v: error %q: want one line naming the address once", tt.args, msg)
			}
		})
	}
}
