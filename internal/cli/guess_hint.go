package cli

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
	"github.com/spf13/cobra"
)

// A guess is a command a user may type for one that has another name:
// "groups" for get --group-by error, "retry" (top's r) for forget
// --requeue. Cobra's own "unknown command" could only say "Did you mean
// get?", without the flag that does it, or nothing at all.
type guess struct {
	words []string
	what  string // what does it, after "unknown command "W" for "kubectl backoff": "
	run   string // the command that does it, before the user's arguments
	// logs is the command for a controller read from its log, which
	// forget cannot reach ("" : run serves both).
	logs string
}

var guesses = []guess{
	{words: []string{"groups", "errors"}, what: "the keys' last errors are grouped by get",
		run: "kubectl backoff get --group-by error"},
	{words: []string{"retry", "requeue"}, what: "forget --requeue resets a key's backoff and retries it now (kick, for a controller read from its log)",
		run: "kubectl backoff forget --requeue", logs: "kubectl backoff kick"},
	{words: []string{"reset"}, what: "forget resets a key's backoff (--requeue also retries it now)",
		run: "kubectl backoff forget"},
}

// newGuessHints returns hidden commands named after the guesses' words
// that run nothing and say what to run instead, with the user's own
// arguments: `kubectl backoff groups --addr A` → "… run kubectl backoff
// get --group-by error --addr A".
func newGuessHints() []*cobra.Command {
	var cmds []*cobra.Command
	for _, g := range guesses {
		for _, w := range g.words {
			cmds = append(cmds, &cobra.Command{
				Use:                w,
				Hidden:             true,
				DisableFlagParsing: true, // the user's flags go into the hint as typed
				Args:               cobra.ArbitraryArgs,
				RunE: func(_ *cobra.Command, args []string) error {
					run := g.run
					if g.logs != "" && slices.ContainsFunc(args, func(a string) bool { return strings.HasPrefix(a, "--from-logs") }) {
						run = g.logs
					}
					run = strings.Join(append([]string{run}, quoteAll(args)...), " ")
					return fmt.Errorf("unknown command %q for \"kubectl backoff\": %s; run: %s", w, g.what, run)
				},
			})
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
