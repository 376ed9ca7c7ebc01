package cli_test

import (
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-backoff/kubectl-backoff/internal/cli"
)

// TestUnknownFlagToldByMeaning: get --file is not a misspelt --filter (a
// filter of keys) but a flag of other commands: top browses a snapshot
// with it, snapshot writes one; the error says so, and that get takes a
// FILE with --from-logs. A flag no other command has keeps the nearest
// spelling.
func TestUnknownFlagToldByMeaning(t *testing.T) {
	for _, c := range []struct {
		args    []string
		want    []string
		notWant string
	}{
		{[]string{"get", "--file", "snap.json"}, []string{
			"get has no --file, other commands do: mcp --file (serve a snapshot), snapshot -f/--file (write the snapshot to this file), top --file (browse a snapshot)",
			"; get takes a FILE with --dialect or --from-logs (see kubectl backoff get --help)",
		}, "--filter"},
		{[]string{"describe", "--file=x.json"}, []string{"describe has no --file, other commands do: "}, "did you mean"},
		{[]string{"get", "--stat", "backoff"}, []string{"did you mean --state?"}, "has no"},
		// The demo's address is where it listens, not one it talks to.
		{[]string{"demo", "--addr", "127.0.0.1:18082"}, []string{"demo serves its endpoint at --listen", "top --addr 127.0.0.1:18082"}, "other commands do"},
	} {
		root := cli.NewRootCommand(genericiooptions.NewTestIOStreamsDiscard())
		root.SetArgs(c.args)
		err := root.Execute()
		if err == nil {
			t.Errorf("%v: no error", c.args)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%v: error\n%s\nwant it to contain %q", c.args, err, w)
			}
		}
		if strings.Contains(err.Error(), c.notWant) {
			t.Errorf("%v: error\n%s\nwant no %q", c.args, err, c.notWant)
		}
	}
}
