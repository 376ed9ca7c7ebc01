package cli

import (
	"context"
	"io"
	"strings"

	"github.com/go-logr/logr"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"k8s.io/klog/v2"

	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// NewRootCommand returns the kubectl-backoff command with its subcommands.
// Errors are returned, not printed: the caller prints them once, as
// "error: ...", and exits 1.
func NewRootCommand(streams genericiooptions.IOStreams) *cobra.Command {
	// stderr is notes and warnings in words, some quoting the cluster (an
	// error, a key): all of it passes through the one sanitiser. stdout is
	// what -o promises; its text printers escape their own.
	// On a terminal, its lines wrap at words to its width (wrapToTerminal).
	streams.ErrOut = text.PrintableWriter(wrapToTerminal(streams.ErrOut))
	cmd := &cobra.Command{
		Use:   "kubectl-backoff",
		Short: "See why a controller isn't reconciling your object yet",
		Long: `kubectl backoff shows, per key, what a controller's work queue is doing:
consecutive failures, the next retry and the limiter that chose it, the last
errors, and whether a reconcile is running.

New here? Start with ` + "`kubectl backoff demo`" + `: controllers with a flaky
dependency, backing off in the live view. ` + "`kubectl backoff demo --serve-only`" + `
serves them on 127.0.0.1:8082 for the other commands:
kubectl backoff top --addr 127.0.0.1:8082.`,
		// Help reads "kubectl backoff", as a kubectl plugin is invoked.
		Annotations:   map[string]string{cobra.CommandDisplayNameAnnotation: "kubectl backoff"},
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	// Should cobra ever print an error itself, it says it as kubectl and
	// main do: "error: ...", never cobra's "Error: ...".
	cmd.SetErrPrefix("error:")
	// A misspelt flag gets the one meant, as a misspelt command does.
	cmd.SetFlagErrorFunc(suggestFlag)
	cmd.SetIn(streams.In)
	cmd.SetOut(streams.Out)
	cmd.SetErr(streams.ErrOut)
	// kubectl's own flags (--kubeconfig, --context, -n, --as, ...) for every command.
	cf := genericclioptions.NewConfigFlags(true)
	cf.AddFlags(cmd.PersistentFlags())
	cmd.PersistentPreRun = func(*cobra.Command, []string) {
		// client-go's port-forward and discovery log to klog on their own; our
		// errors are returned, and stray lines would break the tables and the UI.
		klog.SetOutput(io.Discard)
		klog.LogToStderr(false)
		// Errors (apimachinery's HandleError, discovery's memcache) would
		// still reach stderr past -stderrthreshold: a logger takes them all.
		klog.SetLogger(logr.Discard())
	}
	cmd.AddCommand(
		NewTopCommand(cf, streams),
		NewGetCommand(cf, streams),
		NewFleetCommand(cf, streams),
		NewDescribeCommand(cf, streams),
		NewWhyCommand(cf, streams),
		NewForgetCommand(cf, streams),
		NewKickCommand(cf, streams),
		NewSnapshotCommand(cf, streams),
		NewDiffCommand(streams),
		NewDemoCommand(cf, streams),
		NewVersionCommand(streams),
		NewDialectsCommand(streams),
		NewMCPCommand(cf, streams),
	)
	cmd.AddCommand(newGuessHints()...)
	wrapFlagHelp(cmd)
	return cmd
}

// helpWidth is the width --help wraps at: a terminal's 80 columns, as
// kubectl's help is laid out for.
const helpWidth = 80

// wrapFlagHelp makes cmd's help and usage (and so every subcommand's,
// which inherit them) fit helpWidth where cobra's defaults print a line
// as it comes: each flag's help wraps under its description column (it ran
// to 250 columns: --from-logs, --limit), a subcommand's short description
// under its own column, and a paragraph of a long description that
// overflows is flowed again (one that fits stays as written). Examples
// are commands to copy: they stay whole.
func wrapFlagHelp(cmd *cobra.Command) {
	cobra.AddTemplateFunc("wrappedFlagUsages", func(fs *pflag.FlagSet) string { return fs.FlagUsagesWrapped(helpWidth) })
	cobra.AddTemplateFunc("wrappedShort", func(name string, pad int, short string) string {
		lines := text.Wrap(short, max(helpWidth-pad-3, 20))
		return strings.Join(lines, "\n"+strings.Repeat(" ", pad+3))
	})
	cobra.AddTemplateFunc("reflowed", reflow)
	t := cmd.UsageTemplate()
	for _, set := range []string{"LocalFlags", "InheritedFlags"} {
		t = strings.ReplaceAll(t, "{{."+set+".FlagUsages", "{{wrappedFlagUsages ."+set)
	}
	t = strings.ReplaceAll(t, "{{rpad .Name .NamePadding }} {{.Short}}", "{{rpad .Name .NamePadding }} {{wrappedShort .Name .NamePadding .Short}}")
	cmd.SetUsageTemplate(t)
	cmd.SetHelpTemplate(strings.Replace(cmd.HelpTemplate(), "{{. | trimTrailingWhitespaces}}", "{{. | reflowed | trimTrailingWhitespaces}}", 1))
}

// reflow is s with each paragraph (lines between blank ones) that holds a
// line wider than helpWidth joined and wrapped again; a paragraph that
// fits, or is indented (a list, a command), stays as written.
func reflow(s string) string {
	paras := strings.Split(s, "\n\n")
	for i, p := range paras {
		lines := strings.Split(p, "\n")
		over, indented := false, false
		for _, l := range lines {
			over = over || len([]rune(l)) > helpWidth
			indented = indented || strings.HasPrefix(l, " ")
		}
		if over && !indented {
			paras[i] = strings.Join(text.Wrap(strings.Join(lines, " "), helpWidth), "\n")
		}
	}
	return strings.Join(paras, "\n\n")
}

// options is the shape of every command's options, as in kubectl: take the
// arguments, check everything, then act.
type options interface {
	Complete(args []string) error
	Validate() error
	Run(ctx context.Context) error
}

// completesWithContext is options whose Complete reads a file that may be
// a FIFO (diff's snapshots, top --file): the interrupt's context, so that
// Ctrl-C ends a read waiting for a writer.
type completesWithContext interface {
	useContext(ctx context.Context)
}

// runE runs o: Complete, Validate, then Run. Errors are returned for main to
// print once (the root silences cobra's own printing and usage), in the
// flags' names (inFlags).
func runE(o options) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		if c, ok := o.(completesWithContext); ok {
			c.useContext(cmd.Context())
		}
		if err := o.Complete(args); err != nil {
			return inFlags(err)
		}
		if err := o.Validate(); err != nil {
			return inFlags(err)
		}
		return inFlags(o.Run(cmd.Context()))
	}
}
