package cli

import (
	"errors"
	"fmt"

	"github.com/kubectl-backoff/kubectl-backoff/demo"
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

// demoFlags are the flags of `demo` that set demo.Options' fields.
var demoFlags = map[string]string{
	"Keys":       "--keys",
	"Speed":      "--speed",
	"Jitter":     "--jitter",
	"Listen":     "--listen",
	"Kubeconfig": "--kubeconfig",
	"InCluster":  "--in-cluster",
}

// errKubeconfigAndInCluster is demo.ErrKubeconfigAndInCluster in the
// flags' names.
var errKubeconfigAndInCluster = errors.New("--kubeconfig and --in-cluster are mutually exclusive")

// narrowFlags are the flags that narrow a cluster-wide attach, said after
// inspector.Session.CapNote, whose words name what they set.
const narrowFlags = "-l SELECTOR, or -n NAMESPACE instead of -A"

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
	case *demo.OptionError:
		return demoInFlags(e)
	case interface{ Unwrap() []error }:
		// demo.Options.Validate's errors, joined: each said under its
		// flag. Only a join with a part said otherwise is said again, so
		// that another error with parts (fmt.Errorf with two %w) keeps
		// its own words.
		errs := e.Unwrap()
		said, changed := make([]error, len(errs)), false
		for i, one := range errs {
			said[i] = inFlags(one)
			changed = changed || said[i] != one
		}
		if changed {
			return errors.Join(said...)
		}
	}
	switch err {
	case cluster.ErrTargetAndSelector: // ParseTarget returns it as it is
		return errTargetAndSelector
	case demo.ErrKubeconfigAndInCluster:
		return errKubeconfigAndInCluster
	}
	return err
}

// demoInFlags says a demo option's error under its flag, and for a busy
// --listen address the flag's value that avoids it.
func demoInFlags(e *demo.OptionError) error {
	flag := demoFlags[e.Field]
	if flag == "" {
		return e
	}
	said := e.Said(flag)
	if e.Busy() {
		said += ": is another demo running? Stop it, or let the system pick a free port: --listen 127.0.0.1:0"
	}
	return &saidError{said, e}
}

// saidError is a library's error said in the flags' words: its message,
// and the error beneath for errors.Is and As.
type saidError struct {
	msg string
	err error
}

func (e *saidError) Error() string { return e.msg }
func (e *saidError) Unwrap() error { return e.err }
