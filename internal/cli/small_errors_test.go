package cli_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-backoff/kubectl-backoff/internal/cli"
)

// describe on a log with no reconcile line in it says the log holds no
// controllers, not "(controllers: )".
func TestDescribeFromAnEmptyLog(t *testing.T) {
	empty := filepath.Join(t.TempDir(), "EMPTY")
	if err := os.WriteFile(empty, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	streams, _, out, _ := genericiooptions.NewTestIOStreams()
	err := run(cli.NewDescribeCommand, streams, "--from-logs", empty, "demo/x")
	want := `no controller tracks key "demo/x": the log ` + empty + ` holds no keys of any controller`
	if err == nil || !strings.HasPrefix(err.Error(), want) || strings.Contains(err.Error(), "(controllers: )") {
		t.Errorf("describe --from-logs EMPTY demo/x: error %v, want one beginning %q", err, want)
	}
	if out.Len() != 0 {
		t.Errorf("stdout %q, want nothing", out)
	}
}

// describe KEY on a log of several controllers, for a key none of them
// logs a failure of, says why a log may not hold a key that exists: it
// knows only the keys it logs errors for. Without that, "no controller
// tracks key" read as a key mistyped (a newcomer's try on the demo's log
// with a polling key, which never fails); --controller already said so.
func TestDescribeFromALogKeyNotInIt(t *testing.T) {
	log := filepath.Join(t.TempDir(), "two.log")
	line := `{"level":"error","ts":"2026-12-07T16:33:25Z","msg":"Reconciler error","controller":"%s","controllerGroup":"","controllerKind":"ConfigMap","ConfigMap":{"name":"%s","namespace":"demo"},"namespace":"demo","name":"%s","reconcileID":"1","error":"boom"}` + "\n"
	var b strings.Builder
	for _, c := range []string{"naive", "outage"} {
		fmt.Fprintf(&b, line, c, c+"-1", c+"-1")
	}
	if err := os.WriteFile(log, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	const notLogged = "not in the log (only keys with a logged reconcile error, or V(5) lines, are known)"
	for _, key := range []string{"demo/polling-1", "polling-1"} {
		streams, _, _, _ := genericiooptions.NewTestIOStreams()
		err := run(cli.NewDescribeCommand, streams, "--from-logs", log, key)
		if err == nil || !strings.Contains(err.Error(), `no controller tracks key "`+key+`" (controllers: naive, outage)`) ||
			!strings.Contains(err.Error(), notLogged) {
			t.Errorf("describe --from-logs LOG %s: error %v, want it to say the key is %q", key, err, notLogged)
		}
	}
}

// An --addr copied from a request (the demo prints one to curl) names an
// endpoint of the API: it is read from where the API is mounted.
func TestAddrNamingAnEndpointPath(t *testing.T) {
	addr := diagnosisEndpoint(t)
	for _, a := range []string{
		addr + "/debug/backoff/v1/keys",
		addr + "/debug/backoff/v1/controllers",
		addr + "/debug/backoff/v1/",
		strings.TrimPrefix(addr, "http://") + "/debug/backoff/v1/errors",
	} {
		streams, _, out, _ := genericiooptions.NewTestIOStreams()
		if err := run(cli.NewGetCommand, streams, "--addr", a, "--controller", "naive"); err != nil {
			t.Errorf("get --addr %s: %v", a, err)
			continue
		}
		if !strings.Contains(out.String(), "demo/n-1") {
			t.Errorf("get --addr %s printed:\n%s\nwant naive's keys", a, out)
		}
	}
}

// An address copied with its query would list what the query did not ask
// for: the query is refused, with the flags that say it.
func TestAddrWithAQueryIsRefused(t *testing.T) {
	addr := diagnosisEndpoint(t)
	for _, c := range []struct {
		cmd  newCommand
		args []string
	}{{cli.NewGetCommand, nil}, {cli.NewDescribeCommand, []string{"demo/n-1"}}} {
		streams, _, out, _ := genericiooptions.NewTestIOStreams()
		err := run(c.cmd, streams, append(c.args, "--addr", addr+"/debug/backoff/v1/keys?controller=outage&state=failed")...)
		if err == nil {
			t.Fatalf("--addr with a query: no error; printed:\n%s", out)
		}
		for _, want := range []string{"is not read", "--controller outage", "--state failed", "--addr " + addr + "/debug/backoff/"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error %q; want it to say %q", err, want)
			}
		}
		if out.Len() != 0 {
			t.Errorf("printed %q before refusing", out)
		}
	}
}

// Errors are said once, by main, as kubectl says them ("error: ..."):
// cobra prints none itself, and should it ever, it says "error:" too.
func TestErrorsSayErrorLowercase(t *testing.T) {
	streams, _, out, errOut := genericiooptions.NewTestIOStreams()
	root := cli.NewRootCommand(streams)
	root.SetArgs([]string{"get", "--addr", "127.0.0.1:1", "--limit", "-1"})
	if err := root.Execute(); err == nil || !strings.HasPrefix(err.Error(), "--limit -1") {
		t.Errorf("get --limit -1: error %v, want the flag's", err)
	}
	if out.Len()+errOut.Len() != 0 {
		t.Errorf("the command printed %q, %q itself; main prints the error once", out, errOut)
	}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if got := c.ErrPrefix(); got != "error:" {
			t.Errorf("%s: error prefix %q, want %q", c.CommandPath(), got, "error:")
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}
