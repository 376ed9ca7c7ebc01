package cli_test

import (
	"context"
	"errors"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/kubectl-backoff/kubectl-backoff/instrument"
	"github.com/kubectl-backoff/kubectl-backoff/internal/cli"
)

// A key holding a control character is shown escaped by get, and that
// text, pasted into describe, finds the key: what the user sees is what
// they can type.
func TestDescribeTakesTheKeyAsGetShowsIt(t *testing.T) {
	const key = "default/a\x1b[2Jb"
	reg := instrument.NewRegistry()
	log := logr.Discard()
	srv := httptest.NewServer(instrument.NewHandler(instrument.HandlerOptions{Registry: reg, Logger: &log}))
	t.Cleanup(srv.Close)
	p := instrument.NewTyped("widget", instrument.TypedOptions[string]{Registry: reg})
	rl := p.RateLimiter(instrument.NewExponentialLimiter[string](time.Minute, time.Hour))
	rec := p.Reconciler(reconcile.TypedFunc[string](func(context.Context, string) (reconcile.Result, error) {
		return reconcile.Result{}, errors.New("connection refused")
	}))
	if _, err := rec.Reconcile(context.Background(), key); err != nil {
		rl.When(key)
	}

	streams, _, out, _ := genericiooptions.NewTestIOStreams()
	if err := run(cli.NewGetCommand, streams, "--addr", srv.URL, "-o", "name"); err != nil {
		t.Fatalf("get: %v", err)
	}
	shown := strings.TrimSpace(out.String())
	shown = shown[strings.LastIndex(shown, " ")+1:]
	if strings.ContainsRune(shown, '\x1b') || !strings.Contains(shown, `\x1b`) {
		t.Fatalf("get -o name printed %q; want the key with its ESC escaped", shown)
	}
	name := shown[strings.Index(shown, "default/"):]

	streams, _, out, _ = genericiooptions.NewTestIOStreams()
	if err := run(cli.NewDescribeCommand, streams, "--addr", srv.URL, name); err != nil {
		t.Fatalf("describe %q: %v", name, err)
	}
	if !strings.Contains(out.String(), "connection refused") || strings.ContainsRune(out.String(), '\x1b') {
		t.Errorf("describe %q:\n%s\nwant the key's description, escaped", name, out)
	}
	if err := run(cli.NewDescribeCommand, streams, "--addr", srv.URL, `default/a\x1b[2Jc`); err == nil {
		t.Errorf("describe of another escaped key found one")
	}
}
