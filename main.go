// Command kubectl-backoff is the kubectl plugin `kubectl backoff`: it shows,
// per key, why a controller has not reconciled an object yet.
package main

import (
	"context"
	"errors"
	"fmt"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
	"os"
	"os/signal"
	"syscall"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-backoff/kubectl-backoff/internal/cli"
)

func main() {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// The first SIGINT/SIGTERM asks for a clean shutdown; a second one means
	// the user will not wait for it.
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		<-sigs
		cancel()
		<-sigs
		os.Exit(130)
	}()

	streams := genericiooptions.IOStreams{In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr}
	err := cli.NewRootCommand(streams).ExecuteContext(ctx)
	// A second signal that came while the clean shutdown ran says the
	// same, even when the shutdown was quicker than its delivery.
	select {
	case <-sigs:
		os.Exit(130)
	default:
	}
	if err != nil {
		code := cli.ExitCode(err, ctx.Err() != nil)
		switch {
		case errors.Is(err, cli.ErrInterrupted):
			// How far it got: "--from-logs stdin: interrupted after 1,204 lines".
			fmt.Fprintln(os.Stderr, text.Printable(err.Error()))
		case code == 130:
			// A request the interrupt cut: "context canceled" said nothing.
			fmt.Fprintln(os.Stderr, "interrupted")
		default:
			// An error can quote the cluster (an object's name, its error):
			// escaped as every printer escapes it.
			fmt.Fprintln(os.Stderr, "error:", text.Printable(err.Error()))
		}
		os.Exit(code)
	}
}
