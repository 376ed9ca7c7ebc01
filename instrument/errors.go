package instrument

import (
	"encoding/json"
	"errors"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"net/http"
)

// statusError carries its own status code.
type statusError struct {
	code int
	msg  string
}

// Error implements error.
func (e *statusError) Error() string { return e.msg }

// serveErr maps an error to its status: bad parameters are 400, unknown
// controllers and keys 404, anything else 500.
func serveErr(w http.ResponseWriter, r *http.Request, err error) {
	code := http.StatusInternalServerError
	if se, ok := errors.AsType[*statusError](err); ok {
		code = se.code
	} else if _, ok := errors.AsType[*paramError](err); ok {
		code = http.StatusBadRequest
	} else if _, ok := errors.AsType[*notFoundError](err); ok {
		code = http.StatusNotFound
	}
	serveError(w, r, code, err.Error())
}

// serveError writes the one error shape every endpoint uses.
func serveError(w http.ResponseWriter, r *http.Request, code int, msg string) {
	reason := map[int]string{
		http.StatusBadRequest:            "BadRequest",
		http.StatusForbidden:             "Forbidden",
		http.StatusNotFound:              "NotFound",
		http.StatusMethodNotAllowed:      "MethodNotAllowed",
		http.StatusConflict:              "Conflict",
		http.StatusRequestEntityTooLarge: "RequestEntityTooLarge",
		http.StatusUnsupportedMediaType:  "UnsupportedMediaType",
	}[code]
	if reason == "" {
		reason = "InternalError"
	}
	serveJSON(w, r, code, api.ErrorResponse{Error: api.ErrorBody{Code: code, Reason: reason, Message: msg}})
}

// serveJSON writes v. Programs that ask for application/json get it compact;
// a person with curl (Accept: */*) gets it indented.
func serveJSON(w http.ResponseWriter, r *http.Request, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(code)
	enc := json.NewEncoder(w)
	if r == nil || r.Header.Get("Accept") != "application/json" {
		enc.SetIndent("", "  ")
	}
	_ = enc.Encode(v) // the status line is out; a broken connection has no one to tell
}
