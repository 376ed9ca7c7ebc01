package query

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// Every answer, and every error in the one shape api.ErrorResponse, is
// written here: programs that ask for application/json get it compact, a
// person with curl (Accept: */*) gets it indented.

// WriteError writes err in the one error shape (Body), with Retry-After
// when it asks the client to come back.
func WriteError(w http.ResponseWriter, r *http.Request, err error) {
	b := Body(err)
	if e, ok := errors.AsType[*Error](err); ok && e.RetryAfter > 0 {
		secs := int((e.RetryAfter + time.Second - 1) / time.Second)
		w.Header().Set("Retry-After", strconv.Itoa(secs))
	}
	serveJSON(w, r, b.Error.Code, b)
}

// Body is err in the one error shape every server writes: an *Error with
// its status and field, anything else a 500.
func Body(err error) api.ErrorResponse {
	e, ok := errors.AsType[*Error](err)
	switch {
	case ok:
	case errors.Is(err, context.Canceled):
		// The client went (or half-closed its side, which the server reads
		// as gone): not the server's error, and no 5xx for it.
		e = &Error{Status: StatusClientClosed, Msg: "the client closed the request before its answer"}
	default:
		e = &Error{Status: http.StatusInternalServerError, Msg: err.Error()}
	}
	return api.ErrorResponse{Error: api.ErrorBody{Code: e.Status, Reason: Reason(e.Status), Field: e.Field, Value: e.Value, Message: e.Msg}}
}

// ServeJSON writes v as the answer to r, with status code.
func ServeJSON(w http.ResponseWriter, r *http.Request, code int, v any) { serveJSON(w, r, code, v) }

func serveJSON(w http.ResponseWriter, r *http.Request, code int, v any) {
	setJSONHeaders(w)
	w.WriteHeader(code)
	enc := NewEncoder(w)
	if wantsIndent(r) {
		enc.SetIndent("", "  ")
	}
	_ = enc.Encode(v) // the status line is out; a broken connection has no one to tell
}

// NewEncoder is the one JSON encoder of the endpoint: every answer, list,
// error and watch line is encoded by it, so the wire reads the same
// everywhere; a snapshot file is written by it too (snapshot.Write), so an
// error text reads in the file as the endpoint served it. It leaves &, <
// and > as they are, where encoding/json escapes them by default (for JSON
// pasted into a page's HTML): the index's URLs and the error texts are read
// with curl and jq. What keeps a browser from
// rendering an answer as HTML is not that escape but the headers every
// answer carries (setJSONHeaders; a watch's are its own): an application/json
// or x-ndjson Content-Type, and nosniff.
func NewEncoder(w io.Writer) *json.Encoder {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc
}

// marshal is v as NewEncoder writes it, compact, ending in a newline.
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	if err := NewEncoder(&buf).Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
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
