package cli

import (
	"io"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"k8s.io/utils/clock"
)

// NewGetCommandOnTerminal is NewGetCommand as run with stderr on a
// terminal: what a test buffer never is.
func NewGetCommandOnTerminal(cf *genericclioptions.ConfigFlags, streams genericiooptions.IOStreams) *cobra.Command {
	return newGetCommand(cf, streams, func(io.Writer) bool { return true })
}

// NewGetCommandWithClock is NewGetCommand whose -w polls on clk.
func NewGetCommandWithClock(clk clock.WithTickerAndDelayedExecution) func(*genericclioptions.ConfigFlags, genericiooptions.IOStreams) *cobra.Command {
	return func(cf *genericclioptions.ConfigFlags, streams genericiooptions.IOStreams) *cobra.Command {
		cmd, o := newGetCommandOptions(cf, streams, writerIsTerminal)
		o.clock = clk
		return cmd
	}
}

// NewDescribeCommandWithClock is NewDescribeCommand whose -w polls on clk.
func NewDescribeCommandWithClock(clk clock.WithTickerAndDelayedExecution) func(*genericclioptions.ConfigFlags, genericiooptions.IOStreams) *cobra.Command {
	return func(cf *genericclioptions.ConfigFlags, streams genericiooptions.IOStreams) *cobra.Command {
		cmd, o := newDescribeCommandOptions(cf, streams)
		o.clock = clk
		return cmd
	}
}

// ServerFlags is serverFlags for the external tests: kubectl's flags for
// the API server at url, with an empty kubeconfig.
var ServerFlags = serverFlags

// ConfigMapServer is configMapServer: an API server stand-in serving
// discovery and namespace widgets' ConfigMaps named by names.
var ConfigMapServer = configMapServer

// FailingEndpoint is failingEndpoint: an instrumented controller's
// endpoint whose controller "configmap" failed on widgets/down-1.
var FailingEndpoint = failingEndpoint

// ScreenWidthForTest makes every writer a terminal of width cells until
// the returned func is called.
func ScreenWidthForTest(width int) func() { return screenWidthForTest(width) }
