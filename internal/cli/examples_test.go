package cli_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	ctrllog "sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/kubectl-backoff/kubectl-backoff/demo"
	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/cli"
)

// exampleOrder is the order the commands' examples run in: snapshot's
// files before diff reads them, forget after the reads.
var exampleOrder = []string{"get", "describe", "snapshot", "diff", "top", "forget", "demo", "kick", "why", "fleet", "mcp", "version", "dialects"}

// placeholders turn an example written for a cluster into one against the
// demo: the controller's deployment becomes --addr, and the example keys
// become keys the demo has (its keys have five digits).
func placeholders(addr string) *strings.Replacer {
	return strings.NewReplacer(
		"deploy/my-controller", "--addr "+addr,
		"127.0.0.1:8082", addr,
		"localhost:8082", addr,
		"default/my-widget", "demo/outage-00001",
		"default/w1", "demo/naive-00001",
		"default/w2", "demo/naive-00002",
	)
}

// TestExamplesRunAgainstTheDemo runs every example of every command's
// --help, then every command of the docs' sh blocks, against a real demo.
func TestExamplesRunAgainstTheDemo(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the demo")
	}
	ctrllog.SetLogger(logr.Discard())
	repoRoot, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())                        // the examples' files (before.json, snap.json) land here
	controllerLog, err := os.Create("demo.log") // the docs' saved log
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { controllerLog.Close() }) // after the demo stopped writing
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	opts := demo.DefaultOptions()
	opts.Keys, opts.Seed, opts.Speed, opts.Listen, opts.Out, opts.ErrOut = 200, 42, 20, "127.0.0.1:0", io.Discard, io.Discard
	opts.ControllerLog = controllerLog
	d, err := demo.Start(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); _ = d.Wait() })
	addr := d.Addr().String()
	waitForFailures(ctx, t, d.URL())

	var lines []string
	root := cli.NewRootCommand(genericiooptions.NewTestIOStreamsDiscard())
	cmds := root.Commands()
	slices.SortStableFunc(cmds, func(a, b *cobra.Command) int {
		return slices.Index(exampleOrder, a.Name()) - slices.Index(exampleOrder, b.Name())
	})
	for _, c := range cmds {
		if c.Hidden {
			continue // a hint that runs nothing (groups): no examples
		}
		if slices.Index(exampleOrder, c.Name()) < 0 {
			t.Errorf("command %s: not in exampleOrder; add it, so its examples run", c.Name())
		}
		lines = append(lines, exampleLines(c.Example)...)
	}
	if len(lines) < 20 {
		t.Fatalf("found %d examples; the help texts moved?", len(lines))
	}
	repl := placeholders(addr)
	for _, line := range lines {
		t.Run(line, func(t *testing.T) { runExample(ctx, t, repl.Replace(line)) })
	}
	// Then every sh block of the README, docs/ and CONTRIBUTING.md
	// (docs_test.go), on the same demo.
	t.Run("docs", func(t *testing.T) { runDocCommands(ctx, t, repoRoot, addr) })
}

// runExample runs one example line, as a user would type it.
func runExample(ctx context.Context, t *testing.T, line string) {
	words := shellWords(line)
	if words[0] == "curl" {
		for _, w := range words {
			if strings.Contains(w, api.DefaultPrefix) {
				resp, err := http.Get("http://" + strings.TrimPrefix(w, "http://"))
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					t.Errorf("GET %s: %s", w, resp.Status)
				}
				return
			}
		}
		t.Fatalf("%s: no endpoint URL", line)
	}
	if len(words) < 3 || words[0] != "kubectl" || words[1] != "backoff" {
		t.Fatalf("%q: not a kubectl backoff command", line)
	}
	args := words[2:]
	switch args[0] {
	case "kick":
		t.Skip("kick patches objects on a cluster; the demo's store is in process")
	case "why":
		t.Skip("why reads objects on a cluster; the e2e tier runs it (e2e_why_test.go)")
	case "fleet":
		if !slices.Contains(args, "--show-queries") {
			t.Skip("fleet reads a Prometheus; TestFleetThroughARealPrometheus runs it against a real one scraping two demos")
		}
	case "mcp":
		// Served over HTTP on a port of its own, and stopped once it
		// serves (TestMCPCommand talks to it); a source other than the
		// demo's endpoint needs a cluster.
		if !slices.Contains(args, "--addr") && !slices.Contains(args, "--file") {
			t.Skip("mcp of a cluster's controller or log: the e2e tier runs it (e2e_mcp_test.go)")
		}
		if i := slices.Index(args, "--listen"); i >= 0 {
			args = slices.Delete(args, i, i+2)
		}
		args = append(args, "--listen", "127.0.0.1:0")
	case "demo":
		// Its own port, and stopped once it serves: it runs until Ctrl-C.
		// Its own directory too, so that its --log leaves the running
		// demo's demo.log alone.
		args = append(args, "--listen", "127.0.0.1:0")
		t.Chdir(t.TempDir())
	case "forget":
		if slices.Contains(args, "--all") && !slices.Contains(args, "--dry-run") {
			args = append(args, "--yes") // the user's y at the prompt
		}
	}
	var out, errOut bytes.Buffer
	runCtx, stop := context.WithTimeout(ctx, 30*time.Second)
	defer stop()
	stdout, stderr := io.Writer(&out), io.Writer(&errOut)
	switch args[0] {
	case "demo":
		stdout = &cancelOnWrite{w: &out, cancel: stop}
	case "mcp": // its stdout is the protocol's: where it serves is said on stderr
		stderr = &cancelOnWrite{w: &errOut, cancel: stop}
	}
	cmd := cli.NewRootCommand(genericiooptions.IOStreams{In: strings.NewReader(""), Out: stdout, ErrOut: stderr})
	cmd.SetArgs(args)
	err := cmd.ExecuteContext(runCtx)
	switch {
	case args[0] == "top":
		// Without a terminal top stops here, after Complete and Validate
		// took every flag (and read --file).
		if err == nil || !strings.Contains(err.Error(), "top needs a terminal") {
			t.Errorf("error %v, want only that top needs a terminal", err)
		}
	case err != nil:
		t.Errorf("error: %v\nstderr: %s", err, errOut.String())
	case args[0] == "demo" && !strings.Contains(out.String(), "http://"):
		t.Errorf("demo printed %q, want its URL", out.String())
	case args[0] == "mcp":
		if !strings.Contains(errOut.String(), "Serving MCP") {
			t.Errorf("mcp said %q on stderr, want where it serves", errOut.String())
		}
	case !slices.ContainsFunc(args, func(a string) bool { return strings.HasPrefix(a, "-o") || strings.HasPrefix(a, "-f") }) && out.Len() == 0:
		t.Errorf("printed nothing on stdout; stderr: %s", errOut.String())
	}
}

// cancelOnWrite cancels once the demo has printed its address.
type cancelOnWrite struct {
	mu     sync.Mutex
	w      io.Writer
	cancel func()
}

func (c *cancelOnWrite) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n, err := c.w.Write(p)
	c.cancel()
	return n, err
}

// waitForFailures polls the demo until its naive keys have failed, so the
// examples see what a user of the demo sees: until one backs off for more
// than the examples take to run, so that the --state backoff examples find
// keys (an empty get prints nothing on stdout, as kubectl's).
func waitForFailures(ctx context.Context, t *testing.T, url string) {
	t.Helper()
	s, err := inspector.Direct(url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for {
		l, err := s.Keys(ctx, inspector.KeyQuery{States: []api.State{api.StateBackoff}, Sort: api.SortFailures, Limit: 1})
		if err == nil && len(l.Items) > 0 && l.Items[0].Key.NextRetryAt.Sub(l.ServerTime) > 10*time.Second {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the demo has no failing key: %v", err)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// exampleLines are the command lines of an example text: comments and
// blank lines dropped, a trailing comment or & cut.
func exampleLines(text string) []string {
	var out []string
	for line := range strings.Lines(text) {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if i := strings.Index(line, "  #"); i > 0 {
			line = strings.TrimSpace(line[:i])
		}
		out = append(out, strings.TrimSpace(strings.TrimSuffix(line, "&")))
	}
	return out
}

// shellWords splits a command line as a shell would: spaces separate,
// quotes group ('…' literally, "…" too, since the examples need no more).
func shellWords(line string) []string {
	var words []string
	var cur strings.Builder
	inWord := false
	var quote rune
	for _, r := range line {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			cur.WriteRune(r)
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == ' ' || r == '\t':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words
}
