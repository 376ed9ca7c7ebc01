package cluster

import (
	"errors"
	"fmt"
)

// The parameters a ParamError names, in this package's words; a caller
// with flags says them under its own names.
const (
	ParamPort     = "port"           // PortSpec: a container port number or name
	ParamSelector = "label selector" // ParseTarget's selector
)

// ParamError is a value the caller gave that cannot be used: the
// parameter, the value as the message shows it (quoted when a name), and
// what is wrong with it. Its words are this package's ("port \"metrics\":
// …"); a command that took the value from a flag says it under the flag.
type ParamError struct {
	Param string // ParamPort, ParamSelector
	Value string
	Err   error
}

// Error implements error.
func (e *ParamError) Error() string { return e.Param + " " + e.Value + ": " + e.Err.Error() }

// Unwrap is what is wrong with the value.
func (e *ParamError) Unwrap() error { return e.Err }

// ErrTargetAndSelector is ParseTarget given both a target and a selector.
var ErrTargetAndSelector = errors.New("give a target or a label selector, not both")

// NoPodsError is Resolve finding no instrumented pod to attach to without
// a target: where it looked (Namespace; "" is every namespace) and, when
// there were some, how many were not running.
type NoPodsError struct {
	Namespace  string
	NotRunning int
}

// Error implements error.
func (e *NoPodsError) Error() string {
	where := fmt.Sprintf("in namespace %q", e.Namespace)
	if e.Namespace == "" {
		where = "in any namespace"
	}
	if e.NotRunning > 0 {
		return fmt.Sprintf("%d instrumented pod(s) %s, none running", e.NotRunning, where)
	}
	return fmt.Sprintf("no instrumented pods %s: looked for a container port named %q", where, PortName)
}
