package cli

import (
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
)

// startedWith is the command line that ran cmd with args, rebuilt from what
// cobra parsed: "kubectl backoff mcp deploy/x --namespace ops --allow-write"
// minus the flags in drop. Flags come by their long names in cobra's order,
// each list flag once per element, an optional-value flag alone when given
// alone; every word is shell-quoted. A suggestion made from it restarts the
// same command, not one that has lost its target.
func startedWith(cmd *cobra.Command, args []string, drop ...string) string {
	words := []string{"kubectl", "backoff", cmd.Name()}
	for _, a := range args {
		words = append(words, explain.ShellQuote(a))
	}
	cmd.Flags().Visit(func(f *pflag.Flag) {
		for _, d := range drop {
			if f.Name == d {
				return
			}
		}
		name := "--" + f.Name
		if s, ok := f.Value.(pflag.SliceValue); ok {
			for _, v := range s.GetSlice() {
				words = append(words, name, explain.ShellQuote(v))
			}
			return
		}
		if v := f.Value.String(); f.NoOptDefVal != "" && v == f.NoOptDefVal {
			words = append(words, name) // --listen-any, --from-logs alone
		} else {
			words = append(words, name, explain.ShellQuote(v))
		}
	})
	return strings.Join(words, " ")
}
