// Package cli holds the cobra commands of kubectl-backoff, each an options
// struct with Complete, Validate and Run as kubectl's own commands have.
//
//	streams := genericiooptions.IOStreams{In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr}
//	cmd := cli.NewRootCommand(streams)
//	if err := cmd.ExecuteContext(ctx); err != nil {
//		fmt.Fprintln(streams.ErrOut, "error:", err)
//		os.Exit(1)
//	}
package cli
