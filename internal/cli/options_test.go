package cli_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	clocktesting "k8s.io/utils/clock/testing"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument"
	"github.com/kubectl-backoff/kubectl-backoff/internal/cli"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/describe"
)

type newCommand func(*genericclioptions.ConfigFlags, genericiooptions.IOStreams) *cobra.Command

// run executes a command as kubectl-backoff would, with streams.
func run(newCmd newCommand, streams genericiooptions.IOStreams, args ...string) error {
	cmd := newCmd(genericclioptions.NewConfigFlags(true), streams)
	cmd.SetArgs(args)
	cmd.SetOut(io.Discard)
	cmd.SetErr(io.Discard)
	return cmd.Execute()
}

// unreachable is an --addr nothing listens on: validation must fail first.
const unreachable = "http://127.0.0.1:1"

func TestOptionValidation(t *testing.T) {
	get, describe, forget := cli.NewGetCommand, cli.NewDescribeCommand, cli.NewForgetCommand
	tests := []struct {
		name   string
		newCmd newCommand
		args   []string
		want   string // a part of the error, naming the flag
	}{
		{"get -o xml", get, []string{"-o", "xml"}, `--output "xml": use one of wide, json, yaml`},
		{"get unknown --state", get, []string{"--state", "backoff,sleeping"}, `--state: "sleeping" is not a state`},
		{"get bad --sort", get, []string{"--sort", "age"}, `--sort "age": use next, failures, key, since, attention or retrying`},
		{"get --limit -1", get, []string{"--limit", "-1"}, "--limit -1: must be 0 (all) or more"},
		{"get --chunk-size 0", get, []string{"--limit", "0", "--chunk-size", "0"}, "--chunk-size 0: must be between 1 and 1000"},
		{"get --chunk-size 1001", get, []string{"--chunk-size", "1001"}, "--chunk-size 1001: must be between 1 and 1000"},
		{"get keys and --filter", get, []string{"default/w1", "-q", "503"}, "give KEYs or --filter/--state, not both"},
		{"get --scheme ftp", get, []string{"--scheme", "ftp"}, `--scheme "ftp": use http or https`},
		{"get --port 70000", get, []string{"--port", "70000"}, "--port 70000: out of range 1-65535"},
		{"get --path without /", get, []string{"--path", "debug/backoff"}, `--path "debug/backoff": must start with /`},
		{"get --addr with a TARGET", get, []string{"--addr", unreachable, "deploy/ctrl"}, "--addr talks to one endpoint directly"},
		{"get --addr with -l", get, []string{"--addr", unreachable, "-l", "app=ctrl"}, "--addr talks to one endpoint directly"},
		{"get --addr with -A", get, []string{"--addr", unreachable, "-A"}, "--addr talks to one endpoint directly"},
		// --scheme and --path say how to reach a pod; --addr is the whole address.
		{"get --addr with --scheme", get, []string{"--addr", "127.0.0.1:1", "--scheme", "https"}, "--scheme with --addr: --addr is the whole address, so say it there: --addr https://127.0.0.1:1"},
		{"get --addr with --path", get, []string{"--addr", unreachable, "--path", "/nope/"}, "--path with --addr: --addr is the whole address, so say it there: --addr http://127.0.0.1:1/nope/"},
		{"describe --addr with --path", describe, []string{"default/w1", "--addr", unreachable + "/debug/backoff/", "--path", "/nope/"}, "--path with --addr"},
		{"forget --addr with both", forget, []string{"default/w1", "--addr", "127.0.0.1:1", "--scheme", "https", "--path", "/nope"}, "--scheme and --path with --addr: --addr is the whole address, so say it there: --addr https://127.0.0.1:1/nope"},
		{"get TARGET with -l", get, []string{"deploy/ctrl", "-l", "app=ctrl"}, "give a TARGET or -l/--selector, not both"},
		{"get bad -l", get, []string{"-l", "app in ("}, `-l/--selector "app in ("`},
		{"get bad TARGET", get, []string{"deploy/"}, `target "deploy/": want KIND/NAME`},

		{"describe -o wide", describe, []string{"default/w1", "-o", "wide"}, `--output "wide": use one of json, yaml`},
		{"describe without a key", describe, nil, "describe needs a KEY"},
		{"describe a TARGET without a key", describe, []string{"deploy/ctrl"}, "describe needs a KEY"},
		{"describe a log without a key", describe, []string{"--from-logs", "saved.log"}, "e.g. kubectl backoff describe --from-logs saved.log default/my-widget"},
		{"describe a TARGET's log without a key", describe, []string{"deploy/ctrl", "--from-logs"}, "e.g. kubectl backoff describe deploy/my-controller --from-logs default/my-widget"},
		{"describe two keys", describe, []string{"default/w1", "default/w2"}, "describe takes one KEY, got 2: default/w1 default/w2"},
		{"describe --addr with a TARGET", describe, []string{"--addr", unreachable, "deploy/ctrl", "default/w1"}, "--addr talks to one endpoint directly"},
		{"describe --scheme ftp", describe, []string{"default/w1", "--scheme", "ftp"}, `--scheme "ftp"`},
		{"describe --port 70000", describe, []string{"default/w1", "--port", "70000"}, "--port 70000"},

		{"forget neither keys nor --all", forget, nil, "name the KEYs to forget, or use --all"},
		{"forget keys and --all", forget, []string{"default/w1", "--all"}, "give KEYs or --all, not both"},
		{"forget - (stdin)", forget, []string{"--addr", unreachable, "-"}, "forget takes its KEYs as arguments, not - (stdin): pipe them through xargs"},
		{"forget --spread without --requeue", forget, []string{"default/w1", "default/w2", "--spread", "1m"}, "--spread spaces out retries: it needs --requeue"},
		{"forget --spread 2h", forget, []string{"--all", "--requeue", "--spread", "2h"}, "--spread 2h0m0s: must be between 0 and 1h"},
		{"forget --spread negative", forget, []string{"--all", "--requeue", "--spread", "-1s"}, "--spread -1s: must be between 0 and 1h"},
		{"forget --filter without --all", forget, []string{"default/w1", "-q", "503"}, "--filter and --state select keys for --all"},
		{"forget --state without --all", forget, []string{"default/w1", "--state", "backoff"}, "--filter and --state select keys for --all"},
		{"forget unknown --state", forget, []string{"--all", "--state", "sleeping"}, `--state: "sleeping" is not a state`},
		{"forget -o wide", forget, []string{"default/w1", "-o", "wide"}, `--output "wide": use one of json, yaml`},
		{"forget --scheme ftp", forget, []string{"default/w1", "--scheme", "ftp"}, `--scheme "ftp"`},
		{"forget --port 70000", forget, []string{"default/w1", "--port", "70000"}, "--port 70000"},
		{"forget --reason too long", forget, []string{"default/w1", "--reason", strings.Repeat("x", 513)}, "--reason is 513 bytes: at most 512"},
		{"forget --reason on two lines", forget, []string{"default/w1", "--reason", "a\nb"}, "--reason must be one line of text"},
		{"forget --addr with a TARGET", forget, []string{"--addr", unreachable, "deploy/ctrl", "default/w1"}, "--addr talks to one endpoint directly"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := run(tt.newCmd, genericiooptions.NewTestIOStreamsDiscard(), tt.args...)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("%v: error = %v, want one containing %q", tt.args, err, tt.want)
			}
		})
	}
}

func TestVersion(t *testing.T) {
	defer func(v string) { cli.Version = v }(cli.Version)
	for _, v := range []string{"", "v0.1.0"} {
		cli.Version = v
		streams, _, out, _ := genericiooptions.NewTestIOStreams()
		cmd := cli.NewVersionCommand(streams)
		cmd.SetArgs(nil)
		if err := cmd.Execute(); err != nil {
			t.Fatalf("version: %v", err)
		}
		got := out.String()
		if !strings.HasPrefix(got, "kubectl-backoff ") || !strings.HasSuffix(got, " (wire API v1)\n") || (v != "" && !strings.Contains(got, v)) {
			t.Errorf("Version %q: version prints %q, want kubectl-backoff VERSION (wire API v1)", v, got)
		}
	}
}

// endpoint serves a controller "widget" with default/w1 (5 failures),
// default/w2 (2) and default/w3 (converged), on a fake clock.
func endpoint(t *testing.T, readOnly bool) (*httptest.Server, *inspector.Client) {
	t.Helper()
	srv, reconcile, _ := widgets(t, readOnly)
	for _, k := range []struct {
		key      string
		failures int
		err      string
	}{{"default/w1", 5, "connection refused"}, {"default/w2", 2, "timeout"}, {"default/w3", 0, ""}} {
		for range k.failures {
			reconcile(k.key, errors.New(k.err))
		}
		if k.failures == 0 {
			reconcile(k.key, nil)
		}
	}
	c, err := inspector.NewClient(srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	return srv, c
}

// widgets serves a controller "widget" on a real endpoint, on a fake
// clock; reconcile(key, err) runs one reconcile of key with that outcome,
// then, as controller-runtime does, retries a failure through the limiter
// or forgets the key.
func widgets(t *testing.T, readOnly bool) (*httptest.Server, func(key string, err error), *clocktesting.FakeClock) {
	t.Helper()
	reg := instrument.NewRegistry()
	log := logr.Discard()
	srv := httptest.NewServer(instrument.NewHandler(instrument.HandlerOptions{Registry: reg, Logger: &log, ReadOnly: readOnly}))
	t.Cleanup(srv.Close)
	clk := clocktesting.NewFakeClock(time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC))
	p := instrument.NewTyped("widget", instrument.TypedOptions[string]{Registry: reg, Clock: clk})
	rl := p.RateLimiter(nil)
	var fail error
	rec := p.Reconciler(reconcile.TypedFunc[string](func(context.Context, string) (reconcile.Result, error) { return reconcile.Result{}, fail }))
	return srv, func(key string, err error) {
		fail = err
		_, _ = rec.Reconcile(context.Background(), key)
		if err != nil {
			rl.When(key)
		} else {
			rl.Forget(key) // as controller-runtime does after a success
		}
	}, clk
}

// failures reads a key's failure counter through the endpoint.
func failures(t *testing.T, c *inspector.Client, key string) int {
	t.Helper()
	d, err := c.Key(context.Background(), "widget", key)
	if err != nil {
		t.Fatalf("key %s: %v", key, err)
	}
	return d.Failures
}

func TestGetEndToEnd(t *testing.T) {
	srv, _ := endpoint(t, false)
	tests := []struct {
		args []string
		want []string
	}{
		{args: []string{"--addr", srv.URL, "-o", "json", "--sort", "next"}, want: []string{"default/w2", "default/w1", "default/w3"}},
		// The default, attention: both fail since the same instant, so the most failures first.
		{args: []string{"--addr", srv.URL, "-o", "json"}, want: []string{"default/w1", "default/w2", "default/w3"}},
		{args: []string{"--addr", strings.TrimPrefix(srv.URL, "http://"), "-o", "json", "--sort", "key", "--limit", "2"}, want: []string{"default/w1", "default/w2"}},
		{args: []string{"--addr", srv.URL, "-o", "json", "--state", "idle"}, want: []string{"default/w3"}},
		{args: []string{"--addr", srv.URL, "-o", "json", "default/w1"}, want: []string{"default/w1"}},
	}
	for _, tt := range tests {
		streams, _, out, _ := genericiooptions.NewTestIOStreams()
		if err := run(cli.NewGetCommand, streams, tt.args...); err != nil {
			t.Fatalf("get %v: %v", tt.args, err)
		}
		var l inspector.KeyList
		if err := json.Unmarshal(out.Bytes(), &l); err != nil {
			t.Fatalf("get %v: output is not a KeyList: %v\n%s", tt.args, err, out)
		}
		var got []string
		for _, k := range l.Items {
			got = append(got, k.Key.Key)
		}
		if strings.Join(got, " ") != strings.Join(tt.want, " ") {
			t.Errorf("get %v: keys %q, want %q", tt.args, got, tt.want)
		}
	}

	streams, _, out, errOut := genericiooptions.NewTestIOStreams()
	if err := run(cli.NewGetCommandOnTerminal, streams, "--addr", srv.URL, "--limit", "1"); err != nil {
		t.Fatalf("get: %v", err)
	}
	// The controller's diagnosis comes first, from its counts and v1/errors,
	// on a terminal's stderr; stdout is the table.
	if !strings.HasPrefix(out.String(), "CONTROLLER ") || !strings.Contains(out.String(), "default/w1") ||
		!regexp.MustCompile(`^widget — 2 keys retrying on 2 errors[^\n]*\n\nShowing 1 of 3 matching keys \(--limit\)\.\n$`).MatchString(withoutWaitNote(errOut.String())) {
		t.Errorf("get --limit 1: stdout %q, stderr %q; want a table of default/w1, and the diagnosis and a note on --limit on stderr", out, errOut)
	}
}

// TestGetNothingMatched: as kubectl's "No resources found", an empty get
// prints nothing on stdout, no header, and says so on stderr.
func TestGetNothingMatched(t *testing.T) {
	srv, _ := endpoint(t, false)
	streams, _, out, errOut := genericiooptions.NewTestIOStreams()
	if err := run(cli.NewGetCommand, streams, "--addr", srv.URL, "-q", "no-such-key"); err != nil {
		t.Fatalf("get -q no-such-key: %v", err)
	}
	if e := "No keys matched (3 tracked).\n"; out.String() != "" || withoutWaitNote(errOut.String()) != e {
		t.Errorf("get -q no-such-key: stdout %q, stderr %q; want nothing and %q", out, errOut, e)
	}
}

func TestDescribeEndToEnd(t *testing.T) {
	srv, _ := endpoint(t, false)
	streams, _, out, _ := genericiooptions.NewTestIOStreams()
	if err := run(cli.NewDescribeCommand, streams, "--addr", srv.URL, "default/w1"); err != nil {
		t.Fatalf("describe: %v", err)
	}
	summary := "Backing off 80ms after 5 consecutive failures: per-item exponential, 5ms·2^4, cap 16m40s. Next retry at 10:00:00 (in <1s); if it fails again, the one after waits 160ms."
	for _, want := range []string{"Key:         default/w1\n", "State:       backoff\n", "Diagnosis:\n  " + summary + "\n", "TIME       TRIGGER   OUTCOME", // its fake clock's whole seconds print as a log's
		// The true reason, in the UI's words: not a guess between two.
		"Object:\n  not read: attached with --addr, and no kubeconfig cluster to read it from\n"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("describe output lacks %q:\n%s", want, out)
		}
	}
	// Five failures in an instant on "connection refused" are no reason to call it permanent.
	if strings.Contains(out.String(), "permanent") {
		t.Errorf("describe calls a connection refused permanent:\n%s", out)
	}

	streams, _, out, _ = genericiooptions.NewTestIOStreams()
	if err := run(cli.NewDescribeCommand, streams, "--addr", srv.URL, "default/w1", "-o", "json"); err != nil {
		t.Fatalf("describe -o json: %v", err)
	}
	var d describe.Description
	if err := json.Unmarshal(out.Bytes(), &d); err != nil || d.Diagnosis.Summary != summary || d.Key == nil || d.Key.Failures != 5 {
		t.Errorf("describe -o json: %v; decoded %+v", err, d)
	}

	if err := run(cli.NewDescribeCommand, genericiooptions.NewTestIOStreamsDiscard(), "--addr", srv.URL, "default/nope"); err == nil || !strings.Contains(err.Error(), `no key "default/nope"`) {
		t.Errorf("describe of an unknown key: error = %v, want one naming it", err)
	}
}

func TestForgetEndToEnd(t *testing.T) {
	srv, c := endpoint(t, false)
	streams, _, out, _ := genericiooptions.NewTestIOStreams()
	if err := run(cli.NewForgetCommand, streams, "--addr", srv.URL, "default/w1", "--requeue"); err != nil {
		t.Fatalf("forget default/w1 --requeue: %v", err)
	}
	if got := failures(t, c, "default/w1"); got != 0 {
		t.Errorf("after forget: default/w1 has %d failures, want 0", got)
	}
	if !strings.HasPrefix(out.String(), "default/w1: was backoff, 5 failures reset\n") {
		t.Errorf("forget output = %q, want a line on default/w1 then the message", out)
	}

	err := run(cli.NewForgetCommand, genericiooptions.NewTestIOStreamsDiscard(), "--addr", srv.URL, "--all")
	if err == nil || !strings.Contains(err.Error(), "--all would forget 3 keys: confirm with --yes (stdin is not a terminal)") {
		t.Errorf("forget --all without --yes: error = %v, want one asking for --yes", err)
	}
	if got := failures(t, c, "default/w2"); got != 2 {
		t.Errorf("forget --all without --yes changed default/w2: %d failures, want 2", got)
	}

	streams, _, out, _ = genericiooptions.NewTestIOStreams()
	if err := run(cli.NewForgetCommand, streams, "--addr", srv.URL, "--all", "--yes", "--state", "backoff"); err != nil {
		t.Fatalf("forget --all --yes: %v", err)
	}
	if got := failures(t, c, "default/w2"); got != 0 {
		t.Errorf("after forget --all --yes: default/w2 has %d failures, want 0", got)
	}
	// default/w1 is still in backoff: without the queue decorator, its
	// pending retry keeps its time.
	if !strings.Contains(out.String(), "forgot the backoff of 2 keys of widget") || !strings.HasSuffix(out.String(), " (--requeue retries now)\n") {
		t.Errorf("forget --all --yes --state backoff output = %q, want the endpoint's message on 2 keys, and the flag that retries now", out)
	}
	// The endpoint's "requeue" is said as the flag.
	streams, _, out, _ = genericiooptions.NewTestIOStreams()
	if err := run(cli.NewForgetCommand, streams, "--addr", srv.URL, "default/w3"); err != nil {
		t.Fatalf("forget default/w3: %v", err)
	}
	if !strings.HasSuffix(out.String(), "(no failures counted, no retry pending): --requeue runs it now\n") {
		t.Errorf("forget of a converged key: output %q, want it to name --requeue", out)
	}
}

func TestForgetReadOnly(t *testing.T) {
	srv, c := endpoint(t, true)
	err := run(cli.NewForgetCommand, genericiooptions.NewTestIOStreamsDiscard(), "--addr", srv.URL, "default/w1")
	if err == nil || !strings.Contains(err.Error(), "forget refused") || !strings.Contains(err.Error(), "read-only") {
		t.Errorf("forget on a read-only endpoint: error = %v, want one saying it is read-only", err)
	}
	if got := failures(t, c, "default/w1"); got != 5 {
		t.Errorf("read-only endpoint: default/w1 has %d failures, want 5", got)
	}
}
