package instrument

import (
	"errors"
	"fmt"
	"testing"

	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// claimsTerminal is an error whose Is method says it is every error.
type claimsTerminal struct{}

func (claimsTerminal) Error() string        { return "claims" }
func (claimsTerminal) Is(target error) bool { return true }

// plainErr is an error type with no Is and no Unwrap.
type plainErr string

func (e plainErr) Error() string { return string(e) }

// TestIsTerminalAsErrorsIs: the store's cached answer is errors.Is's for
// every error, in any order, however often a plain type was seen before.
func TestIsTerminalAsErrorsIs(t *testing.T) {
	errs := []error{
		errors.New("plain"),
		plainErr("plain value"),
		reconcile.TerminalError(errors.New("gone")),
		fmt.Errorf("wrapped plain: %w", errors.New("x")),
		fmt.Errorf("wrapped: %w", reconcile.TerminalError(nil)),
		fmt.Errorf("not wrapped: %v", reconcile.TerminalError(nil)),
		errors.Join(errors.New("a"), reconcile.TerminalError(nil)),
		claimsTerminal{},
		errors.New("plain again"),
	}
	s := benchProbe(true).store
	for round := range 3 {
		for i := range errs {
			for _, err := range []error{errs[i], errs[(i+round)%len(errs)], errs[i]} {
				if want, got := errors.Is(err, reconcile.TerminalError(nil)), s.isTerminal(err); got != want {
					t.Fatalf("round %d: isTerminal(%#v) = %v, errors.Is says %v", round, err, got, want)
				}
			}
		}
	}
}
