package query

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// Error is a request the engine refuses: the status it answers with, the
// parameter or body field at fault (Field, empty only for an error that is
// about no one field) and a message that says what to do. Field is what a
// client maps to its own flag; it never reads Message for that.
type Error struct {
	Status int
	Field  string
	// Value is the one value of Field refused, when it was one (api.ErrorBody.Value).
	Value string
	Msg   string
	// Problem is, for an Invalid parameter, Msg without the parameter's
	// name: what is wrong with the value, for a caller that names the
	// parameter its own way (a filter line, a tool's input).
	Problem string
	// RetryAfter, for a 429, is when to come back (the Retry-After header).
	RetryAfter time.Duration
}

// Error implements error.
func (e *Error) Error() string { return e.Msg }

// Invalid is a bad parameter or body field: 400, naming it, with the message
// prefixed as every server has written it (parameter "sort": ...).
func Invalid(field, format string, args ...any) *Error {
	problem := fmt.Sprintf(format, args...)
	return &Error{Status: http.StatusBadRequest, Field: field, Problem: problem,
		Msg: InvalidPrefix(field) + problem}
}

// InvalidPrefix is what an Invalid message says before its problem: the
// parameter, as every server has written it on the wire (parameter "sort": ).
func InvalidPrefix(field string) string { return fmt.Sprintf("parameter %q: ", field) }

// AmbiguousKey is v1/key's answer, in every source, to a key without a
// controller that several controllers have: a 400 naming the controller
// parameter and them.
func AmbiguousKey(key string, controllers []string) *Error {
	return Invalid("controller", "key %q is known to controllers %s: name one", key, strings.Join(controllers, ", "))
}

// nameless refuses a parameter with an empty name, naming NamelessField.
func nameless(pair string) *Error {
	return &Error{Status: http.StatusBadRequest, Field: NamelessField,
		Msg: fmt.Sprintf("query %q: a parameter with no name; write NAME=VALUE", truncate(pair, 200))}
}

// NotFound is no such controller, key or endpoint: 404.
func NotFound(format string, args ...any) *Error {
	return &Error{Status: http.StatusNotFound, Msg: fmt.Sprintf(format, args...)}
}

// Forbidden is a refused action (read-only sources refuse forget): 403.
func Forbidden(format string, args ...any) *Error {
	return &Error{Status: http.StatusForbidden, Msg: fmt.Sprintf(format, args...)}
}

// Errorf is an error answered with status.
func Errorf(status int, format string, args ...any) *Error {
	return &Error{Status: status, Msg: fmt.Sprintf(format, args...)}
}

// Busy is a request refused under load (429), to be sent again after
// retryAfter.
func Busy(retryAfter time.Duration, format string, args ...any) *Error {
	e := Errorf(http.StatusTooManyRequests, format, args...)
	e.RetryAfter = retryAfter
	return e
}

// FieldOf is the field an error names, or "".
func FieldOf(err error) string {
	if e, ok := errors.AsType[*Error](err); ok {
		return e.Field
	}
	return ""
}

// StatusClientClosed is the status of a request its client closed before
// its answer (nginx's 499): logged and counted as the client's doing, not
// the server's; the client, gone, rarely reads it.
const StatusClientClosed = 499

// Reason is the Kubernetes-style reason of a status: its text without
// spaces (BadRequest, NotFound, TooManyRequests).
func Reason(status int) string {
	if status == StatusClientClosed {
		return "ClientClosedRequest"
	}
	return strings.ReplaceAll(http.StatusText(status), " ", "")
}
