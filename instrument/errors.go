package instrument

import (
	"fmt"
	"net/http"

	"github.com/kubectl-backoff/kubectl-backoff/internal/query"
)

// The endpoint's errors are the query engine's (*query.Error): a status, the
// parameter or body field at fault and a message that says what to do; its
// handler alone writes them, in the one shape api.ErrorResponse.

// badParam is a bad query parameter or body field, named in the message
// and in the error's field, as the query engine names its own.
func badParam(name, format string, args ...any) error {
	return query.Invalid(name, format, args...)
}

// badBody is a forget body that does not decode: field is the body field
// at fault when the decoder says which, else "body".
func badBody(field, format string, args ...any) error {
	return &query.Error{Status: http.StatusBadRequest, Field: field, Msg: fmt.Sprintf(format, args...)}
}

func errNotFound(format string, args ...any) error { return query.NotFound(format, args...) }

// errNotInstrumented is an action the controller lacks the part for (a
// forget without an instrumented rate limiter): 409.
func errNotInstrumented(format string, args ...any) error {
	return query.Errorf(http.StatusConflict, format, args...)
}
