package cli

import "fmt"

// get and describe read a log to its end, then print: -w would wait on a
// store that no longer changes (a file, or a TARGET's logs read once), or
// (a pipe that never ends, tail -f) print nothing at all until killed.
// top follows a log as it grows; -w says so instead of hanging.

// refuseWatch is the error of cmd's -w with --from-logs: what to run to
// follow that log.
func (o *fromLogsOptions) refuseWatch(cmd string, watch bool, a *attachOptions) error {
	if !watch || !o.enabled() {
		return nil
	}
	follow := "kubectl backoff top --from-logs " + shellQuote(o.source)
	switch o.source {
	case fromTarget:
		follow = "kubectl backoff top " + shellQuote(a.target.String()) + " --from-logs"
	case "-":
		follow = "kubectl logs -f deploy/NAME | kubectl backoff top --from-logs -"
	}
	return fmt.Errorf("--watch (-w) does not follow --from-logs: %s reads the log to its end and prints once; "+
		"to follow a log as it grows, run %s (or drop -w)", cmd, follow)
}
