package cli

import (
	"fmt"
	"runtime/debug"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// Version is the release, set at build time with
// -ldflags "-X github.com/kubectl-backoff/kubectl-backoff/cli.Version=v0.1.0".
var Version = ""

// NewVersionCommand returns `kubectl backoff version`.
func NewVersionCommand(streams genericiooptions.IOStreams) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version",
		Args:  cobra.NoArgs,
		Run: func(cmd *cobra.Command, _ []string) {
			fmt.Fprintf(streams.Out, "kubectl-backoff %s (wire API %s)\n", version(), api.APIVersion)
		},
	}
}

// version is Version, else the module version go install recorded, else "devel".
func version() string {
	if Version != "" {
		return Version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "devel"
}
