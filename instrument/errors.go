package instrument

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api/query"
)

// errKind says what went wrong, in the domain's words; writeError alone maps
// it to an HTTP status, so the probe and the parsers know nothing of HTTP.
type errKind uint8

const (
	kindInternal        errKind = iota
	kindInvalid                 // a bad parameter or body field
	kindNotFound                // no such controller, key or endpoint
	kindNotInstrumented         // the controller lacks what the action needs
	kindForbidden               // read-only, or a request from a web page
	kindMethod                  // wrong method for the endpoint
	kindTooLarge                // request body over the bound
	kindMediaType               // forget body not application/json
	kindURITooLong              // URL over the bound
	kindBusy                    // admission: too many list computations
	kindTimeout                 // a computation ran past its time bound
)

// statusOf maps each kind to its status code and Kubernetes-style reason.
var statusOf = [...]struct {
	code   int
	reason string
}{
	kindInternal:        {http.StatusInternalServerError, "InternalError"},
	kindInvalid:         {http.StatusBadRequest, "BadRequest"},
	kindNotFound:        {http.StatusNotFound, "NotFound"},
	kindNotInstrumented: {http.StatusConflict, "Conflict"},
	kindForbidden:       {http.StatusForbidden, "Forbidden"},
	kindMethod:          {http.StatusMethodNotAllowed, "MethodNotAllowed"},
	kindTooLarge:        {http.StatusRequestEntityTooLarge, "RequestEntityTooLarge"},
	kindMediaType:       {http.StatusUnsupportedMediaType, "UnsupportedMediaType"},
	kindURITooLong:      {http.StatusRequestURITooLong, "RequestURITooLong"},
	kindBusy:            {http.StatusTooManyRequests, "TooManyRequests"},
	kindTimeout:         {http.StatusServiceUnavailable, "Timeout"},
}

// apiError is the one error type of the endpoint: what went wrong, a message
// that says what to do, and for kindBusy when to come back.
type apiError struct {
	kind       errKind
	param      string // the parameter or body field at fault, if one is
	msg        string
	retryAfter time.Duration
}

// Error implements error.
func (e *apiError) Error() string { return e.msg }

func newError(kind errKind, format string, args ...any) *apiError {
	return &apiError{kind: kind, msg: fmt.Sprintf(format, args...)}
}

// badParam is a bad query parameter or body field, named in the message
// and in the error's field, as the query engine names its own.
func badParam(name, format string, args ...any) error {
	return query.Invalid(name, format, args...)
}

// badBody is a forget body that does not decode: field is the body field
// at fault when the decoder says which, else "body".
func badBody(field, format string, args ...any) error {
	return &apiError{kind: kindInvalid, param: field, msg: fmt.Sprintf(format, args...)}
}

func errNotFound(format string, args ...any) error { return newError(kindNotFound, format, args...) }

func errNotInstrumented(format string, args ...any) error {
	return newError(kindNotInstrumented, format, args...)
}

func errForbidden(format string, args ...any) error { return newError(kindForbidden, format, args...) }

// errBusy asks the client to come back after retryAfter.
func errBusy(retryAfter time.Duration, format string, args ...any) error {
	e := newError(kindBusy, format, args...)
	e.retryAfter = retryAfter
	return e
}

// writeError writes err in the one error shape every endpoint uses, with the
// status its kind maps to; an error of another type is a 500.
func writeError(w http.ResponseWriter, r *http.Request, err error) {
	e, ok := errors.AsType[*apiError](err)
	if qe, isQuery := errors.AsType[*query.Error](err); !ok && isQuery {
		e, ok = &apiError{kind: kindOfStatus(qe.Status), param: qe.Field, msg: qe.Msg}, true
	}
	if !ok {
		e = &apiError{kind: kindInternal, msg: err.Error()}
	}
	st := statusOf[e.kind]
	if e.retryAfter > 0 {
		secs := int((e.retryAfter + time.Second - 1) / time.Second)
		w.Header().Set("Retry-After", strconv.Itoa(secs))
	}
	serveJSON(w, r, st.code, api.ErrorResponse{Error: api.ErrorBody{Code: st.code, Reason: st.reason, Field: e.param, Message: e.msg}})
}

// kindOfStatus is the kind of a query engine's error, by its status.
func kindOfStatus(status int) errKind {
	for k, st := range statusOf {
		if st.code == status {
			return errKind(k)
		}
	}
	return kindInternal
}

// serveJSON writes v. Programs that ask for application/json get it compact;
// a person with curl (Accept: */*) gets it indented.
func serveJSON(w http.ResponseWriter, r *http.Request, code int, v any) {
	setJSONHeaders(w)
	w.WriteHeader(code)
	enc := json.NewEncoder(w)
	if wantsIndent(r) {
		enc.SetIndent("", "  ")
	}
	_ = enc.Encode(v) // the status line is out; a broken connection has no one to tell
}

// writeBody writes an answer already encoded.
func writeBody(w http.ResponseWriter, code int, body []byte) {
	setJSONHeaders(w)
	w.WriteHeader(code)
	_, _ = w.Write(body)
}

func setJSONHeaders(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Content-Type-Options", "nosniff")
}

// wantsIndent: a person with curl (Accept: */*) reads indented JSON.
func wantsIndent(r *http.Request) bool {
	return r == nil || r.Header.Get("Accept") != "application/json"
}
