package cli

import (
	"fmt"
	"strings"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
	"github.com/spf13/cobra"
)

// groupWords are commands a user may guess for get --group-by error.
var groupWords = []string{"groups", "errors"}

// newGroupsHints returns hidden commands named after groupWords that run
// nothing and say what to run instead, with the user's own arguments:
// `kubectl backoff groups --addr A` → "… run kubectl backoff get
// --group-by error --addr A". Cobra's own "unknown command" could only
// say "Did you mean get?", without the flag that makes get group.
func newGroupsHints() []*cobra.Command {
	cmds := make([]*cobra.Command, len(groupWords))
	for i, w := range groupWords {
		cmds[i] = &cobra.Command{
			Use:                w,
			Hidden:             true,
			DisableFlagParsing: true, // the user's flags go into the hint as typed
			Args:               cobra.ArbitraryArgs,
			RunE: func(_ *cobra.Command, args []string) error {
				run := append([]string{"kubectl backoff get --group-by error"}, quoteAll(args)...)
				return fmt.Errorf("unknown command %q for \"kubectl backoff\": the keys' last errors are grouped by get; run: %s", w, strings.Join(run, " "))
			},
		}
	}
	return cmds
}

// quoteAll quotes each argument for the shell.
func quoteAll(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = explain.ShellQuote(a)
	}
	return out
}
