package demo

import (
	"errors"
	"net"
	"syscall"
)

// OptionError is a field of Options that Validate or Start refuses, said in
// the demo's words: the field, the value and what is wrong with it
// ("Listen nonsense: missing port in address", "Keys must be between 1 and
// 100000, got 0"). A command that set the field
// from a flag reads Field and says the flag instead; nothing needs the
// message's text.
type OptionError struct {
	// Field is the name of the field of Options: "Keys", "Speed", "Jitter",
	// "Listen", "Kubeconfig" or "InCluster".
	Field string
	// Value is the value refused, as given; "" for InCluster, whose value
	// is its name.
	Value string
	// Err is what is wrong with it. For a Listen address another process
	// holds it is errors.Is syscall.EADDRINUSE (see Busy).
	Err error
	// OutOfRange says Err is the bounds Value is outside of, said before
	// it: "must be between 1 and 100000, got 0".
	OutOfRange bool
}

func (e *OptionError) Error() string {
	s := e.Said(e.Field)
	if e.Busy() {
		// The likely holder: another demo serves on the same default address.
		s += ": is another demo running? Stop it, or listen on port 0 (127.0.0.1:0) to have the system pick a free one"
	}
	return s
}

// Said is the error with name in place of the field's: a flag, for a
// command that set the field from one.
func (e *OptionError) Said(name string) string {
	var s string
	switch {
	case e.OutOfRange:
		s = name + " " + e.Err.Error() + ", got " + e.Value
	case e.Value == "":
		s = name + ": " + e.Err.Error()
	default:
		s = name + " " + e.Value + ": " + e.Err.Error()
	}
	return s
}

// Unwrap returns what is wrong, so that errors.Is sees the cause.
func (e *OptionError) Unwrap() error { return e.Err }

// Busy reports whether the error is a Listen address another process
// holds.
func (e *OptionError) Busy() bool {
	return e.Field == "Listen" && errors.Is(e.Err, syscall.EADDRINUSE)
}

// ErrKubeconfigAndInCluster is Validate's error for Options with both a
// Kubeconfig and InCluster: each picks the API server.
var ErrKubeconfigAndInCluster = errors.New("Kubeconfig and InCluster are mutually exclusive")

// listenError is the OptionError of an address Start could not listen on,
// naming the address once (the endpoint, net and the syscall each repeat
// it).
func listenError(addr string, err error) error {
	cause := err
	if op, ok := errors.AsType[*net.OpError](err); ok {
		cause = op.Err
	}
	return &OptionError{Field: "Listen", Value: addr, Err: cause}
}
