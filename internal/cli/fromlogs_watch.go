package cli

import (
	"fmt"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
)

// get and describe with -w follow a log FILE as it grows (as top does,
// tail -F). A pipe or a TARGET's logs are read to their end before the
// first print, and a pipe that never ends (tail -f) would print nothing at
// all until killed: -w says so instead of hanging, and names top, which
// follows them.

// refuseWatch is the error of cmd's -w with --from-logs of a pipe or a
// TARGET: what to run to follow that log. A file is followed (nil).
func (o *fromLogsOptions) refuseWatch(cmd string, watch bool, a *attachOptions) error {
	if !watch || !o.enabled() {
		return nil
	}
	var follow string
	switch o.source {
	case fromTarget:
		follow = "kubectl backoff top " + explain.ShellQuote(a.target.String()) + " --from-logs"
	case "-":
		follow = "kubectl logs -f deploy/NAME | kubectl backoff top --from-logs -"
	default:
		return nil
	}
	return fmt.Errorf("--watch (-w) does not follow --from-logs %s: %s reads it to its end and prints once; "+
		"to follow it as it grows, run %s (or drop -w)", o.source, cmd, follow)
}
