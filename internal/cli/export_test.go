package cli

import (
	"io"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"
)

// NewGetCommandOnTerminal is NewGetCommand as run with stderr on a
// terminal: what a test buffer never is.
func NewGetCommandOnTerminal(cf *genericclioptions.ConfigFlags, streams genericiooptions.IOStreams) *cobra.Command {
	return newGetCommand(cf, streams, func(io.Writer) bool { return true })
}
