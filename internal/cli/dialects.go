package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/logs"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// NewDialectsCommand returns `kubectl backoff dialects`: the dialects
// --from-logs reads, built in and from dialect files, in the order a line is
// tried.
func NewDialectsCommand(streams genericiooptions.IOStreams) *cobra.Command {
	o := &fromLogsOptions{source: "-"} // validate loads the files
	cmd := &cobra.Command{
		Use:   "dialects",
		Short: "List the log dialects --from-logs reads: built in, from --dialect files and $" + dialectsEnv + ", and the generic reader",
		Example: `  # What a log is read as, in the order a line is tried
  kubectl backoff dialects`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cmd.SilenceUsage = true // the arguments are valid: a bad file is no usage error
			o.since = logs.DefaultSince
			if err := o.validate(&attachOptions{}); err != nil {
				return err
			}
			// A dialect file's name and lines are the user's (or a
			// downloaded file's) text: escaped as every printer's.
			out := text.PrintableWriter(streams.Out)
			for _, d := range logs.Dialects(o.dialects) {
				fmt.Fprintf(out, "%s (%s): %s\n", d.Name, d.Source, strings.Join(d.Messages, ", "))
			}
			return nil
		},
	}
	cmd.Flags().StringArrayVar(&o.dialectFiles, "dialect", nil, "Also list the dialects of this file (repeatable)")
	return cmd
}
