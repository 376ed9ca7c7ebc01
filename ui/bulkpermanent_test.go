package ui

import (
	"context"
	"errors"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument"
)

// The bulk F/R dialog counted its keys and said nothing of those failing
// on a permanent error, which the one key's dialog warns of ("Its last
// error is permanent: forgetting will not help"): a forget of them read as
// a fix. The dry run counts them (ForgetResponse.Permanent, from a real
// endpoint) and the dialog says how many, in the one key's words; a key
// whose permanent error a reconcile has succeeded since is not counted,
// and a set with none adds nothing.
func TestBulkDialogSaysThePermanentErrors(t *testing.T) {
	reg := instrument.NewRegistry()
	naive := instrument.NewTyped[string]("naive", instrument.TypedOptions[string]{Registry: reg})
	rl := naive.RateLimiter(instrument.NewExponentialLimiter[string](5*time.Millisecond, 1000*time.Second))
	track := func(key string, err error) {
		_ = naive.Track(key, func() error { return err })
		if err != nil {
			rl.When(key)
		}
	}
	invalid := reconcile.TerminalError(errors.New("invalid spec: spec.storageClass must be set"))
	track("demo/naive-00001", invalid)
	track("demo/naive-00002", invalid)
	track("demo/naive-00003", errors.New("dial tcp 10.0.0.7:443: connect: connection refused"))
	track("demo/naive-00004", invalid)
	track("demo/naive-00004", nil) // fixed since
	for _, name := range []string{"outage", "wellbehaved"} {
		instrument.NewTyped[string](name, instrument.TypedOptions[string]{Registry: reg}).RateLimiter(instrument.NewExponentialLimiter[string](5*time.Millisecond, time.Second))
	}
	discard := logr.Discard()
	srv := httptest.NewServer(instrument.NewHandler(instrument.HandlerOptions{Registry: reg, Logger: &discard}))
	t.Cleanup(srv.Close)
	s, err := inspector.Direct(srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}

	for _, tt := range []struct {
		filter, key string
		keys        int
		want        string
	}{
		{"naive", "F", 4, "?\n2 of them fail on a permanent error: forgetting will not help them; their next attempt fails the same way unless their object changed.\n"},
		{"naive", "R", 4, "2 of them fail on a permanent error: a retry will fail them the same way unless their object changed.\n"},
		{"00001", "F", 1, "It fails on a permanent error: forgetting will not help it; its next attempt fails the same way unless its object changed.\n"},
		{"00003", "F", 1, ""},
	} {
		t.Run(tt.filter+" "+tt.key, func(t *testing.T) {
			m := send(t, loaded(t, 120, 30), press("/"))
			m = send(t, m, typeText(tt.filter)...)
			m = send(t, m, press("enter"), press(tt.key))
			if m.dialog() == nil || !m.dialog().Act.Bulk() {
				t.Fatalf("%s under filter %q: no bulk dialog", tt.key, tt.filter)
			}
			dry := dryRunCmd(context.Background(), s, m.dialog().ID, m.dialog().Act)().(dryRunMsg)
			if dry.err != nil || dry.count != tt.keys {
				t.Fatalf("dry run: %d keys, error %v; want %d", dry.count, dry.err, tt.keys)
			}
			m = send(t, m, dry)
			prompt := strings.Join(m.dialog().Prompt(), "\n") + "\n"
			switch {
			case tt.want == "" && strings.Contains(prompt, "permanent"):
				t.Errorf("no key fails on a permanent error, the dialog says:\n%s", prompt)
			case !strings.Contains(prompt, tt.want):
				t.Errorf("the dialog:\n%s\nwant it to say:\n%s", prompt, tt.want)
			}
		})
	}
}
