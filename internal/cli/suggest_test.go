package cli_test

import (
	"errors"
	"regexp"
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-backoff/kubectl-backoff/internal/cli"
)

// suggestedCommand is a command a diagnosis suggests, in backquotes.
var suggestedCommand = regexp.MustCompile("`kubectl backoff ([^`]*)`")

// TestDescribeSuggestsCommandsThatRun: the forget that describe suggests,
// copied as printed, runs against the endpoint describe attached to (it
// carries --addr; before, it failed with "no cluster configured"), and for
// a key it names the key and its controller. Each is run with --dry-run
// added, which counts what it would forget.
func TestDescribeSuggestsCommandsThatRun(t *testing.T) {
	outage := diagnosisEndpoint(t) // outage: 12 keys failing 3 times on a 503
	widget, reconcile, _ := widgets(t, false)
	for range 6 { // the same transient error 6 times: the key's advice says forget --requeue
		reconcile("default/w1", errors.New("PUT https://inventory/v1/items/w1: 503 Service Unavailable"))
	}
	for _, tt := range []struct {
		addr string
		args []string
		want string // the dry run's last line
	}{
		{outage, []string{"--controller", "outage"}, "would forget the backoff of 12 keys of outage"},
		{widget.URL, []string{"default/w1"}, "would forget the backoff of 1 key of widget"},
	} {
		addr := tt.addr
		streams, _, out, _ := genericiooptions.NewTestIOStreams()
		if err := run(cli.NewDescribeCommand, streams, append([]string{"--addr", addr}, tt.args...)...); err != nil {
			t.Fatalf("describe %v: %v", tt.args, err)
		}
		cmds := suggestedCommand.FindAllStringSubmatch(out.String(), -1)
		if len(cmds) == 0 {
			t.Fatalf("describe %v suggests no command:\n%s", tt.args, out)
		}
		for _, m := range cmds {
			words := shellWords(m[1])
			if words[0] != "forget" || !strings.Contains(m[1], "--addr "+addr) {
				t.Errorf("describe %v suggests %q: want a forget with --addr %s", tt.args, m[0], addr)
				continue
			}
			streams, _, fout, _ := genericiooptions.NewTestIOStreams()
			if err := run(cli.NewForgetCommand, streams, append(words[1:], "--dry-run")...); err != nil {
				t.Errorf("the suggested %q fails: %v", m[0], err)
				continue
			}
			if !strings.Contains(fout.String(), tt.want) {
				t.Errorf("the suggested %q, dry run, printed %q; want %q", m[0], fout, tt.want)
			}
		}
	}
}
