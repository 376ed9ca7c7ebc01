package cli_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	clocktesting "k8s.io/utils/clock/testing"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/cli"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
)

// diagnosisNow is the fake clock of diagnosisEndpoint.
var diagnosisNow = time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)

// diagnosisGroups is what diagnosisEndpoint's v1/errors answers: fixed,
// since the server's grouping is another part's work.
var diagnosisGroups = api.ErrorGroupList{ServerTime: diagnosisNow, Total: 14, Matched: 14, Groups: []api.ErrorGroup{
	{Controller: "outage", Fingerprint: "PUT <url>: 503 Service Unavailable", Message: "PUT https://inventory/v1/items/o-1: 503 Service Unavailable",
		Class: api.ClassTransient, Count: 12, FirstSeen: diagnosisNow.Add(-12 * time.Minute), LastSeen: diagnosisNow, Examples: []string{"demo/o-1", "demo/o-2"}},
	{Controller: "naive", Fingerprint: "spec.storageClass must be set", Message: "spec.storageClass must be set",
		Class: api.ClassPermanent, Count: 2, FirstSeen: diagnosisNow.Add(-12 * time.Minute), LastSeen: diagnosisNow, Examples: []string{"demo/n-1"}},
}}

// diagnosisEndpoint is the real instrument handler with two controllers —
// outage: 12 keys failing 3 times on a 503; naive: 2 keys failing 6 times
// on an invalid spec, one of them also a key of outage — and a v1/errors
// that answers diagnosisGroups.
func diagnosisEndpoint(t *testing.T) string {
	t.Helper()
	reg := instrument.NewRegistry()
	log := logr.Discard()
	clk := clocktesting.NewFakeClock(diagnosisNow)
	failKeys := func(controller, msg string, failures int, keys ...string) {
		p := instrument.NewTyped(controller, instrument.TypedOptions[string]{Registry: reg, Clock: clk})
		rl := p.RateLimiter(nil)
		rec := p.Reconciler(reconcile.TypedFunc[string](func(context.Context, string) (reconcile.Result, error) { return reconcile.Result{}, errors.New(msg) }))
		for _, k := range keys {
			for range failures {
				_, _ = rec.Reconcile(context.Background(), k)
				rl.When(k)
			}
		}
	}
	var outage []string
	for i := range 12 {
		outage = append(outage, fmt.Sprintf("demo/o-%d", i+1))
	}
	failKeys("outage", "PUT https://inventory/v1/items/o-1: 503 Service Unavailable", 3, outage...)
	failKeys("naive", "spec.storageClass must be set", 6, "demo/n-1", "demo/o-1")

	mux := http.NewServeMux()
	mux.Handle("/", instrument.NewHandler(instrument.HandlerOptions{Registry: reg, Logger: &log}))
	mux.HandleFunc("/debug/backoff/v1/errors", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(diagnosisGroups)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestGetDiagnosesOnTerminalStderr: stdout is the table alone, whatever
// stderr is (| grep and | awk read it); the controllers' diagnosis goes to
// stderr when it is a terminal, only for the controllers of the keys
// listed, and never to a stderr that is a file or a pipe.
func TestGetDiagnosesOnTerminalStderr(t *testing.T) {
	addr := diagnosisEndpoint(t)
	naive := "naive — 2 keys failing for 12m0s on the same permanent error: spec.storageClass must be set"
	outage := "outage — 12 keys backing off since 09:48:00 on one transient error (PUT https://inventory/v1/items/o-1: 503 Service Unavailable); next wave of 12 in under 1s"
	tests := []struct {
		name     string
		terminal bool
		args     []string
		wantErr  string // stderr, whole
	}{
		{name: "stderr a file", args: nil, wantErr: ""},
		{name: "stderr a file, wide", args: []string{"-o", "wide"}, wantErr: ""},
		{name: "terminal", terminal: true, wantErr: naive + "\n" + outage + "\n\n"},
		{name: "terminal, --controller", terminal: true, args: []string{"--controller", "outage", "-o", "wide"}, wantErr: outage + "\n\n"},
		// -q n-1 lists naive's keys alone: outage's line would speak of keys not shown.
		{name: "terminal, -q", terminal: true, args: []string{"-q", "n-1"}, wantErr: naive + "\n\n"},
		// --limit cuts the table, not the answer: -q o-1 matches naive's
		// demo/o-1 and all 12 of outage's keys (their error names
		// items/o-1), though one row is shown.
		{name: "terminal, -q, --limit", terminal: true, args: []string{"-q", "o-1", "--limit", "1"},
			wantErr: naive + "\n" + outage + "\n\nShowing 1 of 13 matching keys (--limit).\n"},
		{name: "terminal, -q matching nothing", terminal: true, args: []string{"-q", "nothing-matches"}, wantErr: "No keys matched (14 tracked).\n"},
		{name: "terminal, -o json", terminal: true, args: []string{"-o", "json"}, wantErr: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			newCmd := cli.NewGetCommand
			if tt.terminal {
				newCmd = cli.NewGetCommandOnTerminal
			}
			streams, _, out, errOut := genericiooptions.NewTestIOStreams()
			if err := run(newCmd, streams, append([]string{"--addr", addr}, tt.args...)...); err != nil {
				t.Fatalf("get %v: %v", tt.args, err)
			}
			if strings.Contains(out.String(), " — ") {
				t.Errorf("get %v printed a diagnosis on stdout:\n%s", tt.args, out)
			}
			if tt.args == nil || tt.args[0] != "-o" || tt.args[1] == "wide" {
				if s := out.String(); s != "" && !strings.HasPrefix(s, "CONTROLLER ") {
					t.Errorf("get %v: stdout does not begin with the table's header:\n%s", tt.args, s)
				}
			}
			if got := withoutWaitNote(errOut.String()); got != tt.wantErr {
				t.Errorf("get %v: stderr\n%q\nwant\n%q", tt.args, got, tt.wantErr)
			}
		})
	}
}

// TestDescribeController: describe --controller prints the controller's
// diagnosis; its endpoint instruments the rate limiter alone, so the
// outage's advice to retry now is kick, not forget --requeue.
func TestDescribeController(t *testing.T) {
	addr := diagnosisEndpoint(t)
	streams, _, out, _ := genericiooptions.NewTestIOStreams()
	if err := run(cli.NewDescribeCommand, streams, "--addr", addr, "--controller", "outage"); err != nil {
		t.Fatalf("describe --controller outage: %v", err)
	}
	want := `Controller:  outage
Situation:   outage

Diagnosis:
  12 keys backing off since 09:48:00 on one transient error (PUT https://inventory/v1/items/o-1: 503 Service Unavailable); next wave of 12 in under 1s
  Keys: 12 tracked: 12 backoff
  Limiter: item-exponential 5ms..16m40s
  Errors of the failing keys, largest first:
    12 keys, transient since 09:48:00: PUT https://inventory/v1/items/o-1: 503 Service Unavailable (e.g. demo/o-1, demo/o-2)
  Retries to come: 12; 12 in the next 60s, at most 12 a second (in under 1s)
  ! What the controller depends on is failing, and the backoff is doing its job: nothing to change in the controller. Once the dependency is back, each key retries at its next retry on its own; ` +
		"`kubectl backoff kick --addr " + addr + " --controller outage demo/o-1 demo/o-2`" + ` retries those now instead (it touches the objects: this endpoint cannot requeue keys; their failure counts stay).
`
	if out.String() != want {
		t.Errorf("describe --controller outage printed:\n%s\nwant:\n%s", out, want)
	}

	streams, _, out, _ = genericiooptions.NewTestIOStreams()
	if err := run(cli.NewDescribeCommand, streams, "--addr", addr, "--controller", "naive", "-o", "json"); err != nil {
		t.Fatalf("describe --controller naive -o json: %v", err)
	}
	var d explain.ControllerDiagnosis
	if err := json.Unmarshal(out.Bytes(), &d); err != nil || d.Controller != "naive" || d.Situation != explain.SituationPermanent {
		t.Errorf("describe --controller naive -o json: %v; decoded %+v", err, d)
	}

	err := run(cli.NewDescribeCommand, genericiooptions.NewTestIOStreamsDiscard(), "--addr", addr, "--controller", "nope")
	if err == nil || !strings.Contains(err.Error(), `no controller "nope"; the endpoint has naive, outage`) && !strings.Contains(err.Error(), `no controller "nope"; the endpoint has outage, naive`) {
		t.Errorf("describe --controller nope: error = %v, want one naming it and the known ones", err)
	}
}

// TestDescribeKeyAcrossControllers: describe KEY without --controller finds
// the controller that has the key, and asks for --controller when two do.
func TestDescribeKeyAcrossControllers(t *testing.T) {
	addr := diagnosisEndpoint(t)
	streams, _, out, _ := genericiooptions.NewTestIOStreams()
	if err := run(cli.NewDescribeCommand, streams, "--addr", addr, "demo/n-1"); err != nil {
		t.Fatalf("describe demo/n-1: %v", err)
	}
	if !strings.Contains(out.String(), "Controller:  naive\n") {
		t.Errorf("describe demo/n-1 printed:\n%s\nwant it found in naive", out)
	}
	err := run(cli.NewDescribeCommand, genericiooptions.NewTestIOStreamsDiscard(), "--addr", addr, "demo/o-1")
	if err == nil || !strings.Contains(err.Error(), `key "demo/o-1" is tracked by several controllers`) || !strings.HasSuffix(err.Error(), "name one with --controller") {
		t.Errorf("describe demo/o-1 (in two controllers): error = %v, want one asking for --controller", err)
	}
	err = run(cli.NewDescribeCommand, genericiooptions.NewTestIOStreamsDiscard(), "--addr", addr, "demo/nope")
	if err == nil || !strings.Contains(err.Error(), `no controller tracks key "demo/nope"`) {
		t.Errorf("describe demo/nope: error = %v, want one saying no controller tracks it", err)
	}
}

// TestKeyOfAnotherController: a KEY under the wrong --controller is an
// error that names the controller tracking it, for get, describe and forget.
func TestKeyOfAnotherController(t *testing.T) {
	addr := diagnosisEndpoint(t)
	for _, tt := range []struct {
		newCmd newCommand
		args   []string
		want   string
	}{
		{cli.NewDescribeCommand, []string{"--controller", "outage", "demo/n-1"}, `controller "outage" has no key "demo/n-1" (tracked by naive: --controller naive)`},
		{cli.NewGetCommand, []string{"--controller", "outage", "demo/n-1"}, `controller "outage" has no key "demo/n-1" (tracked by naive: --controller naive)`},
		{cli.NewForgetCommand, []string{"--controller", "outage", "demo/n-1"}, `(tracked by naive: --controller naive)`},
		{cli.NewForgetCommand, []string{"--controller", "outage", "demo/n-1", "demo/nope"}, `(tracked elsewhere: demo/n-1 by naive: --controller naive)`},
		// Tracked by none: the endpoint's answer as it was.
		{cli.NewDescribeCommand, []string{"--controller", "outage", "demo/nope"}, `controller "outage" has no key "demo/nope"`},
	} {
		err := run(tt.newCmd, genericiooptions.NewTestIOStreamsDiscard(), append([]string{"--addr", addr}, tt.args...)...)
		if err == nil || !strings.HasSuffix(err.Error(), tt.want) {
			t.Errorf("%v: error = %v, want one ending %q", tt.args, err, tt.want)
		}
	}
}

// TestForgetAllAcrossControllers: forget --all without --controller works
// on every controller, with the same confirmation as one.
func TestForgetAllAcrossControllers(t *testing.T) {
	addr := diagnosisEndpoint(t)
	c, err := inspector.NewClient(addr, nil)
	if err != nil {
		t.Fatal(err)
	}
	failuresOf := keyFailures(t, c)
	err = run(cli.NewForgetCommand, genericiooptions.NewTestIOStreamsDiscard(), "--addr", addr, "--all")
	if err == nil || !strings.Contains(err.Error(), "--all would forget 14 keys: confirm with --yes") {
		t.Errorf("forget --all over two controllers without --yes: error = %v, want one counting both", err)
	}
	if failuresOf("naive", "demo/n-1") != 6 || failuresOf("outage", "demo/o-2") != 3 {
		t.Fatal("forget --all without --yes changed a key")
	}
	// A dry run that matches keys of outage only: nothing of naive, and one total.
	streams, _, out, _ := genericiooptions.NewTestIOStreams()
	if err := run(cli.NewForgetCommand, streams, "--addr", addr, "--all", "--dry-run", "-q", "503"); err != nil {
		t.Fatalf("forget --all --dry-run -q 503: %v", err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	// A dry run says its count first: nothing happened.
	if e, a := "would forget 12 keys in 1 controller", lines[0]; e != a || len(lines) != 14 ||
		!strings.HasPrefix(lines[1], "would forget the backoff of 12 keys of outage;") || strings.Contains(out.String(), "naive") {
		t.Errorf("forget --all --dry-run -q 503 printed:\n%s\nwant %q first, then outage's summary and its 12 keys", out, e)
	}
	if failuresOf("outage", "demo/o-2") != 3 {
		t.Fatal("forget --dry-run changed a key")
	}

	streams, _, out, _ = genericiooptions.NewTestIOStreams()
	if err := run(cli.NewForgetCommand, streams, "--addr", addr, "--all", "--yes"); err != nil {
		t.Fatalf("forget --all --yes: %v", err)
	}
	if failuresOf("naive", "demo/n-1") != 0 || failuresOf("outage", "demo/o-2") != 0 || failuresOf("naive", "demo/o-1") != 0 {
		t.Errorf("forget --all --yes: failures left in a controller")
	}
	for _, want := range []string{"outage demo/o-2: was backoff, 3 failures reset\n", "naive demo/n-1: was backoff, 6 failures reset\n", "\nforgot 14 keys in 2 controllers\n"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("forget --all --yes printed:\n%s\nwant a line %q", out, want)
		}
	}
}

// keyFailures returns a reader of one key's failures through c.
func keyFailures(t *testing.T, c *inspector.Client) func(controller, key string) int {
	return func(controller, key string) int {
		t.Helper()
		d, err := c.Key(context.Background(), controller, key)
		if err != nil {
			t.Fatalf("key %s/%s: %v", controller, key, err)
		}
		return d.Failures
	}
}
