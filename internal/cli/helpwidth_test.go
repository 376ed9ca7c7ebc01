package cli_test

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-backoff/kubectl-backoff/internal/cli"
)

// TestHelpFits80Columns: every command's --help fits an 80-column
// terminal: flag help wrapped under its column (cobra printed each on one
// line, up to 250 columns), subcommands' short descriptions and long
// descriptions too. Left whole: the usage line and the examples (commands
// to copy), and a token no break can split (kubectl's own --template help
// quotes a URL).
func TestHelpFits80Columns(t *testing.T) {
	root := cli.NewRootCommand(genericiooptions.NewTestIOStreamsDiscard())
	names := []string{""}
	for _, c := range root.Commands() {
		if c.IsAvailableCommand() {
			names = append(names, c.Name())
		}
	}
	for _, name := range names {
		var out bytes.Buffer
		cmd := cli.NewRootCommand(genericiooptions.NewTestIOStreamsDiscard())
		cmd.SetOut(&out)
		args := []string{"--help"}
		if name != "" {
			args = []string{name, "--help"}
		}
		cmd.SetArgs(args)
		if err := cmd.Execute(); err != nil {
			t.Fatalf("%s --help: %v", name, err)
		}
		section := ""
		for line := range strings.Lines(out.String()) {
			line = strings.TrimSuffix(line, "\n")
			if line != "" && !strings.HasPrefix(line, " ") && strings.HasSuffix(line, ":") {
				section = line
				continue
			}
			if section == "Usage:" || section == "Examples:" || utf8.RuneCountInString(line) <= 80 {
				continue
			}
			unbreakable := false
			for _, w := range strings.Fields(line) {
				unbreakable = unbreakable || utf8.RuneCountInString(w) > 40
			}
			if !unbreakable {
				t.Errorf("kubectl backoff %s --help: a line of %d columns: %q", name, utf8.RuneCountInString(line), line)
			}
		}
		if name == "get" && !strings.Contains(out.String(), "--limit int") {
			t.Errorf("get --help lacks --limit:\n%s", out.String())
		}
	}
}
