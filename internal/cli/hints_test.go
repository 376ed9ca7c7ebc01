package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-backoff/kubectl-backoff/internal/cli"
)

// describe --controller C NAME, for a key without its namespace that one
// key of C ends with, suggests that key, as describe without --controller
// does.
func TestDescribeSuggestsTheNamespacedKey(t *testing.T) {
	addr := diagnosisEndpoint(t)
	streams := genericiooptions.NewTestIOStreamsDiscard()
	err := run(cli.NewDescribeCommand, streams, "--addr", addr, "--controller", "naive", "n-1")
	if err == nil || !strings.Contains(err.Error(), "did you mean demo/n-1?") {
		t.Errorf("describe --controller naive n-1: error %v, want it to suggest demo/n-1", err)
	}
	// The same through forget, which shares the 404's wording.
	err = run(cli.NewForgetCommand, streams, "--addr", addr, "--controller", "naive", "n-1")
	if err == nil || !strings.Contains(err.Error(), "did you mean demo/n-1?") {
		t.Errorf("forget --controller naive n-1: error %v, want it to suggest demo/n-1", err)
	}
	// No key of naive ends so: no guess.
	err = run(cli.NewDescribeCommand, streams, "--addr", addr, "--controller", "naive", "o-2")
	if err == nil || strings.Contains(err.Error(), "did you mean") {
		t.Errorf("describe --controller naive o-2: error %v, want no suggestion", err)
	}
}

// An unknown flag one edit or a prefix away from a real one names it, and
// so does a kubectl shorthand where the command spells the flag otherwise.
func TestUnknownFlagSuggestsTheNearest(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string // "" for no suggestion
	}{
		{[]string{"get", "--stat", "backoff"}, "did you mean --state?"},
		{[]string{"get", "--sate=backoff"}, "did you mean --state?"},
		{[]string{"describe", "--controler", "naive"}, "did you mean --controller?"},
		{[]string{"forget", "--requeu"}, "did you mean --requeue?"},
		{[]string{"get", "--frobnicate"}, ""},
		// kubectl's -o where the command writes a file.
		{[]string{"snapshot", "-o", "s.json"}, "did you mean -f/--file?"},
		{[]string{"get", "-x"}, ""},
	} {
		root := cli.NewRootCommand(genericiooptions.NewTestIOStreamsDiscard())
		root.SetArgs(c.args)
		err := root.Execute()
		if err == nil || !strings.HasPrefix(err.Error(), "unknown flag: ") && !strings.HasPrefix(err.Error(), "unknown shorthand flag: ") {
			t.Errorf("%v: error %v, want unknown flag", c.args, err)
			continue
		}
		if got := strings.Contains(err.Error(), "did you mean"); c.want == "" && got || c.want != "" && !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %q, want suggestion %q", c.args, err, c.want)
		}
	}
}

// --since reads back into a TARGET's logs: with a file, stdin or no
// --from-logs at all it would be ignored, so it is refused, saying so.
func TestSinceAppliesToATarget(t *testing.T) {
	file := filepath.Join(t.TempDir(), "demo.log")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"--from-logs", file, "--since", "1m"},
		{"--from-logs", "-", "--since", "1m"},
		{"--addr", unreachable, "--since", "1m"},
	} {
		err := run(cli.NewGetCommand, genericiooptions.NewTestIOStreamsDiscard(), args...)
		if err == nil || !strings.HasPrefix(err.Error(), "--since applies to ") || !strings.Contains(err.Error(), "TARGET") {
			t.Errorf("get %v: error %v, want --since refused as applying to a TARGET", args, err)
		}
	}
	// Without --since, the file is read.
	if err := run(cli.NewGetCommand, genericiooptions.NewTestIOStreamsDiscard(), "--from-logs", file); err != nil && strings.Contains(err.Error(), "--since") {
		t.Errorf("get --from-logs FILE: %v", err)
	}
}
