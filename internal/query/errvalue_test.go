package query

import (
	"errors"
	"testing"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// TestRefusedStateNamesItsValue: a state refused says which one in the
// error's value, so that a client decides on data, not on the message's
// words (the CLI says unknown is log mode's).
func TestRefusedStateNamesItsValue(t *testing.T) {
	_, err := ParseStates([]string{"backoff,unknown"}, api.States)
	e, ok := errors.AsType[*Error](err)
	if !ok {
		t.Fatalf("ParseStates: %v, want an *Error", err)
	}
	body := Body(e).Error
	if body.Field != "state" || body.Value != string(api.StateUnknown) || body.Code != 400 {
		t.Errorf("refusal %+v; want field state, value unknown, code 400", body)
	}
}
