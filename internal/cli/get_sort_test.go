package cli_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
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

	"github.com/kubectl-backoff/kubectl-backoff/demo"
	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/cli"
)

// get without --sort puts the keys still retrying first: against a real
// handler, a key in backoff (retry in a minute) comes before a key failed
// with a terminal error earlier (which --sort attention puts first: it has
// failed longer), and both before a healthy polling key whose re-check is
// due sooner (which --sort next lists first). Against an endpoint older
// than the retrying order, the default falls back to attention.
func TestGetSortsRetryingByDefault(t *testing.T) {
	reg := instrument.NewRegistry()
	log := logr.Discard()
	h := instrument.NewHandler(instrument.HandlerOptions{Registry: reg, Logger: &log})
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	// An endpoint of a release before the retrying order refuses it, as
	// any server refuses a sort it does not know.
	older := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("sort") == api.SortRetrying {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprint(w, `{"error":{"code":400,"reason":"BadRequest","field":"sort","value":"retrying","message":"parameter \"sort\": \"retrying\" is not a sort order; use next, failures, key, since or attention"}}`)
			return
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(older.Close)
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
	for _, key := range []string{"default/a-polling", "default/c-failed", "default/b-failing"} {
		if _, err := rec.Reconcile(context.Background(), key); err != nil && !errors.Is(err, reconcile.TerminalError(nil)) {
			rl.When(key)
		}
		clk.Step(time.Second) // c fails before b: attention puts the longer failing first
	}

	tests := []struct {
		addr string
		args []string
		want []string
	}{
		{addr: srv.URL, args: nil, want: []string{"default/b-failing", "default/c-failed", "default/a-polling"}},
		{addr: srv.URL, args: []string{"--sort", api.SortAttention}, want: []string{"default/c-failed", "default/b-failing", "default/a-polling"}},
		// The order attention replaced: the polling key's re-check is due first.
		{addr: srv.URL, args: []string{"--sort", api.SortNext}, want: []string{"default/a-polling", "default/b-failing", "default/c-failed"}},
		// An older endpoint: the default is attention's order.
		{addr: older.URL, args: nil, want: []string{"default/c-failed", "default/b-failing", "default/a-polling"}},
	}
	for _, tt := range tests {
		streams, _, out, _ := genericiooptions.NewTestIOStreams()
		args := append([]string{"--addr", tt.addr, "-o", "json"}, tt.args...)
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
	golden.RequireEqual(t, "# stderr\n"+withoutWaitNote(errOut.String())+"# stdout\n"+out.String())
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
