package cli

import (
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"
)

// TestSnapshotRefusesATerminal: `snapshot` without -f on a terminal would
// scroll thousands of lines of JSON away; it refuses, naming -f FILE and
// the redirect, before reaching anything (as tar refuses to write an
// archive to a terminal). A pipe or a file still takes the JSON.
func TestSnapshotRefusesATerminal(t *testing.T) {
	_, tty := openPTY(t)
	defer tty.Close()
	for _, args := range [][]string{{"--addr", "127.0.0.1:1"}, {"--addr", "127.0.0.1:1", "-f", "-"}} {
		streams := genericiooptions.IOStreams{Out: tty, ErrOut: tty}
		cmd := NewSnapshotCommand(genericclioptions.NewConfigFlags(false), streams)
		cmd.SetArgs(args)
		cmd.SetOut(tty)
		cmd.SetErr(tty)
		cmd.SilenceErrors, cmd.SilenceUsage = true, true
		err := cmd.Execute()
		if err == nil || !strings.Contains(err.Error(), "give -f FILE (or redirect: > FILE)") {
			t.Errorf("snapshot %v on a terminal: err = %v, want it refused naming -f FILE", args, err)
		}
		if err != nil && strings.Contains(err.Error(), "127.0.0.1:1") {
			t.Errorf("snapshot %v on a terminal tried the endpoint before refusing: %v", args, err)
		}
	}
}
