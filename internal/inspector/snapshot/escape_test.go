package snapshot_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/go-logr/logr"
	clocktesting "k8s.io/utils/clock/testing"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/snapshot"
)

// TestWriteReadsAsTheEndpoint: an error text holding <, > or & is written
// in a snapshot file as the endpoint serves it (both leave them as they
// are), not as \u003c, \u003e and \u0026, so that grep or less on a saved
// snapshot finds `x509: "<nil>"` as curl on the endpoint shows it.
func TestWriteReadsAsTheEndpoint(t *testing.T) {
	msgs := map[string]string{
		"default/cert": `tls: x509: "<nil>" certificate`,
		"default/and":  "precondition a && b failed: 3 > 2",
	}
	reg := instrument.NewRegistry()
	log := logr.Discard()
	srv := httptest.NewServer(instrument.NewHandler(instrument.HandlerOptions{Registry: reg, Logger: &log}))
	t.Cleanup(srv.Close)
	p := instrument.NewTyped("widget", instrument.TypedOptions[string]{Registry: reg, Clock: clocktesting.NewFakeClock(now)})
	rl := p.RateLimiter(nil)
	for k, m := range msgs {
		rec := p.Reconciler(reconcile.TypedFunc[string](func(context.Context, string) (reconcile.Result, error) { return reconcile.Result{}, errors.New(m) }))
		_, _ = rec.Reconcile(t.Context(), k)
		rl.When(k)
	}
	s, err := inspector.Direct(srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	f, err := snapshot.Take(t.Context(), s, snapshot.TakeOptions{Source: "test"})
	if err != nil {
		t.Fatal(err)
	}
	var file bytes.Buffer
	if err := snapshot.Write(&file, f); err != nil {
		t.Fatal(err)
	}
	resp, err := http.Get(srv.URL + api.DefaultPrefix + "v1/keys")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	wire, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range msgs {
		// The message as JSON writes it inside a string: its quotes escaped.
		enc := strings.ReplaceAll(m, `"`, `\"`)
		if !bytes.Contains(wire, []byte(enc)) {
			t.Fatalf("the endpoint does not serve %s as written:\n%s", enc, wire)
		}
		if !bytes.Contains(file.Bytes(), []byte(enc)) {
			t.Errorf("the snapshot file does not hold %s as the endpoint serves it:\n%s", enc, file.String())
		}
	}
	for _, esc := range []string{`\u003c`, `\u003e`, `\u0026`} {
		if bytes.Contains(file.Bytes(), []byte(esc)) {
			t.Errorf("the snapshot file escapes as %s", esc)
		}
	}
	back, err := snapshot.Read(&file)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range back.Endpoints[0].Keys {
		if k.LastError == nil || k.LastError.Message != msgs[k.Key] {
			t.Errorf("%s read back: %+v, want the message %q", k.Key, k.LastError, msgs[k.Key])
		}
	}
}
