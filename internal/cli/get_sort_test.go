package cli_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"
	"github.com/go-logr/logr"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	clocktesting "k8s.io/utils/clock/testing"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/kubectl-backoff/kubectl-backoff/instrument"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/cli"
	"github.com/kubectl-backoff/kubectl-backoff/internal/demo"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector"
)

// get without --sort puts trouble first: against a real handler, a key in
// backoff (retry in a minute) and a failed key come before a healthy polling
// key whose re-check is due sooner, which --sort next lists first.
func TestGetSortsAttentionByDefault(t *testing.T) {
	reg := instrument.NewRegistry()
	log := logr.Discard()
	srv := httptest.NewServer(instrument.NewHandler(instrument.HandlerOptions{Registry: reg, Logger: &log}))
	t.Cleanup(srv.Close)
	clk := clocktesting.NewFakeClock(time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC))
	p := instrument.NewTyped("widget", instrument.TypedOptions[string]{Registry: reg, Clock: clk})
	rl := p.RateLimiter(instrument.NewExponentialLimiter[string](time.Minute, time.Hour))
	outcome := map[string]func() (reconcile.Result, error){
		"default/a-polling": func() (reconcile.Result, error) { return reconcile.Result{RequeueAfter: 30 * time.Second}, nil },
		"default/b-failing": func() (reconcile.Result, error) { return reconcile.Result{}, errors.New("connection refused") },
		"default/c-failed": func() (reconcile.Result, error) {
			return reconcile.Result{}, reconcile.TerminalError(errors.New("spec.storageClass must be set"))
		},
	}
	rec := p.Reconciler(reconcile.TypedFunc[string](func(_ context.Context, key string) (reconcile.Result, error) { return outcome[key]() }))
	for _, key := range []string{"default/a-polling", "default/b-failing", "default/c-failed"} {
		if _, err := rec.Reconcile(context.Background(), key); err != nil && !errors.Is(err, reconcile.TerminalError(nil)) {
			rl.When(key)
		}
		clk.Step(time.Second) // b fails before c: the longer failing comes first
	}

	tests := []struct {
		args []string
		want []string
	}{
		{args: nil, want: []string{"default/b-failing", "default/c-failed", "default/a-polling"}},
		{args: []string{"--sort", api.SortAttention}, want: []string{"default/b-failing", "default/c-failed", "default/a-polling"}},
		// The order the default replaced: the polling key's re-check is due first.
		{args: []string{"--sort", api.SortNext}, want: []string{"default/a-polling", "default/b-failing", "default/c-failed"}},
	}
	for _, tt := range tests {
		streams, _, out, _ := genericiooptions.NewTestIOStreams()
		args := append([]string{"--addr", srv.URL, "-o", "json"}, tt.args...)
		if err := run(cli.NewGetCommand, streams, args...); err != nil {
			t.Fatalf("get %v: %v", args, err)
		}
		var l inspector.KeyList
		if err := json.Unmarshal(out.Bytes(), &l); err != nil {
			t.Fatalf("get %v: output is not a KeyList: %v\n%s", args, err, out)
		}
		var got []string
		for _, k := range l.Items {
			got = append(got, k.Key.Key+"="+string(k.State))
		}
		var want []string
		for _, k := range tt.want {
			want = append(want, k+"="+string(map[string]api.State{"default/a-polling": api.StateScheduled, "default/b-failing": api.StateBackoff, "default/c-failed": api.StateFailed}[k]))
		}
		if e, a := strings.Join(want, " "), strings.Join(got, " "); e != a {
			t.Errorf("get %v: got %s, want %s", args, a, e)
		}
	}
}

// get on the demo (demo.FirstOutage: seed 7, a minute into its first
// outage, replayed on a fake clock) opens on what is wrong: the
// controllers' diagnoses (on a terminal's stderr), then the keys failing
// longest (stdout).
func TestGetOnTheDemo(t *testing.T) {
	srv := demoWorld(t)

	streams, _, out, errOut := genericiooptions.NewTestIOStreams()
	if err := run(cli.NewGetCommandOnTerminal, streams, "--addr", srv.URL, "--limit", "12"); err != nil {
		t.Fatalf("get: %v", err)
	}
	rows := strings.Split(out.String(), "\n")
	table := slices.IndexFunc(rows, func(l string) bool { return strings.HasPrefix(l, "CONTROLLER ") })
	if table < 0 || len(rows) < table+13 {
		t.Fatalf("no table of 12 keys:\n%s", out)
	}
	for _, row := range rows[table+1 : table+13] {
		if f := strings.Fields(row); len(f) < 3 || (f[2] != string(api.StateBackoff) && f[2] != string(api.StateFailed)) {
			t.Errorf("row %q: want only failing keys first", row)
		}
	}
	golden.RequireEqual(t, "# stderr\n"+errOut.String()+"# stdout\n"+out.String())
}

// demoWorld serves demo.FirstOutage (seed 7, a minute into its first
// outage, on a fake clock) through the real handler.
func demoWorld(t *testing.T) *httptest.Server {
	t.Helper()
	r, err := demo.FirstOutage()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	srv := httptest.NewServer(r.Handler())
	t.Cleanup(srv.Close)
	return srv
}
