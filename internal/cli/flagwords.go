package cli

import (
	"errors"
	"fmt"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/cluster"
)

// The libraries say what is wrong in their own words: "port 70000: out of
// range", "no instrumented pods in namespace …". inFlags is where a
// command reports them: it says the library's typed errors under the flag
// each value came from, and adds what the user can do next with this
// command's flags. It matches types, never an error's text. The libraries
// return these errors as they are, so a command gets them unwrapped; one
// wrapped on its way keeps the library's words.

// clusterFlags are the flags that set cluster's parameters.
var clusterFlags = map[string]string{
	cluster.ParamPort:     "--port",
	cluster.ParamSelector: "-l/--selector",
}

// errTargetAndSelector is cluster.ErrTargetAndSelector in the flags' names.
var errTargetAndSelector = errors.New("give a TARGET or -l/--selector, not both")

// inFlags returns err said with the flags' names when it is a library
// error that has a value or a remedy a flag gives; else err.
func inFlags(err error) error {
	switch e := err.(type) {
	case nil:
		return nil
	case *cluster.ParamError:
		if flag := clusterFlags[e.Param]; flag != "" {
			return fmt.Errorf("%s %s: %w", flag, e.Value, e.Err)
		}
	case *cluster.NoPodsError:
		if e.NotRunning > 0 {
			return err
		}
		target := "give a TARGET such as deploy/NAME, or -A for all namespaces"
		if e.Namespace == "" {
			// -A was given: it is no advice.
			target = "give a TARGET such as deploy/NAME"
		}
		return fmt.Errorf("%w (%s; for a controller without the instrument, add --from-logs to read its logs; "+
			"for one running outside the cluster (go run), --addr 127.0.0.1:8082, its endpoint's address)", err, target)
	}
	if err == cluster.ErrTargetAndSelector { // ParseTarget returns it as it is
		return errTargetAndSelector
	}
	return err
}
