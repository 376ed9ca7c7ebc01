package instrument

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"unicode"

	"github.com/go-logr/logr"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/query"
	"k8s.io/apiserver/pkg/endpoints/request"
)

// maxBodyBytes bounds a request body.
const maxBodyBytes = 1 << 20

// forgetter serves v1/forget for the query engine's handler, which has
// applied the guard and checked the parameters: forget is the instrument's
// alone, since only it can reach a queue.
type forgetter struct {
	reg *Registry
	log logr.Logger
}

// serve forgets what the body asks; changed says the queue changed (not a
// dry run), so that the handler drops lists computed before.
func (f *forgetter) serve(w http.ResponseWriter, r *http.Request) (changed bool, err error) {
	req, err := decodeForget(w, r)
	if err != nil {
		return false, err
	}
	c, err := oneController(f.reg, req.Controller)
	if err != nil {
		return false, err
	}
	req.User = recordedUser(authenticatedUser(r), req.User)
	// A request its client closed (or half-closed) before this point is
	// not applied: it is answered 499, and nothing changed. Once applied,
	// the forget stands and is answered 200, whether or not the client
	// still reads.
	if err := r.Context().Err(); err != nil {
		return false, err
	}
	resp, err := c.forget(req, c.now())
	if err != nil {
		return false, err
	}
	if !resp.DryRun {
		f.logForget(&resp, req)
	}
	query.ServeJSON(w, r, http.StatusOK, resp)
	return !resp.DryRun, nil
}

func (f *forgetter) logForget(resp *api.ForgetResponse, req *api.ForgetRequest) {
	reset := make([]string, 0, min(len(resp.Keys), 100))
	for _, k := range resp.Keys[:min(len(resp.Keys), 100)] {
		reset = append(reset, fmt.Sprintf("%s(%s, %d failures)", k.Key, k.State, k.Failures))
	}
	f.log.Info("forgot backoff", "controller", resp.Controller, "count", resp.Count,
		"requeue", resp.Requeued, "spread", req.Spread.Duration.String(), "reset", reset,
		"user", req.User, "reason", req.Reason)
}

// authenticatedUser is the user an authn filter in front of the handler put
// on the request's context (k8s.io/apiserver's request.WithUser, as
// instrument/authfilter does), or "".
func authenticatedUser(r *http.Request) string {
	if u, ok := request.UserFrom(r.Context()); ok {
		return u.GetName()
	}
	return ""
}

// checkText bounds a free-text field that ends up in the log and an Event:
// one line, at most max bytes.
func checkText(param, s string, max int) error {
	if len(s) > max {
		return badParam(param, "%d bytes; at most %d", len(s), max)
	}
	if i := strings.IndexFunc(s, unicode.IsControl); i >= 0 {
		return badParam(param, "control character %q at byte %d; give one line of text", s[i], i)
	}
	return nil
}

// decodeForget reads and checks a forget body; handles become keys.
func decodeForget(w http.ResponseWriter, r *http.Request) (*api.ForgetRequest, error) {
	if err := query.CheckJSONBody(r); err != nil {
		return nil, err
	}
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxBodyBytes))
	dec.DisallowUnknownFields()
	var req api.ForgetRequest
	if err := dec.Decode(&req); err != nil {
		if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
			return nil, query.Errorf(http.StatusRequestEntityTooLarge, "request body is over %d bytes", maxBodyBytes)
		}
		field := "body"
		if te, ok := errors.AsType[*json.UnmarshalTypeError](err); ok && te.Field != "" {
			field = te.Field
		}
		return nil, badBody(field, "request body: %v", err)
	}
	if dec.More() {
		return nil, badBody("body", "request body: more than one JSON value")
	}
	for i, hd := range req.Handles {
		k, err := query.KeyOfHandle(hd)
		if err != nil {
			return nil, badParam("handles", "handle %d: %v", i, err)
		}
		req.Keys = append(req.Keys, k)
	}
	req.Handles = nil
	switch {
	case len(req.Keys) == 0 && req.Filter == nil:
		return nil, badParam("keys", "name the keys to forget, or give a filter")
	case len(req.Keys) > 0 && req.Filter != nil:
		return nil, badParam("filter", "give keys or a filter, not both")
	case len(req.Keys) > maxForgetKeys:
		return nil, badParam("keys", "%d keys; at most %d per request (use a filter)", len(req.Keys), maxForgetKeys)
	case req.Spread.Duration < 0 || req.Spread.Duration > maxSpread:
		return nil, badParam("spread", "%v is out of range [0, %v]", req.Spread.Duration, maxSpread)
	}
	if err := checkText("reason", req.Reason, api.MaxReasonBytes); err != nil {
		return nil, err
	}
	if err := checkText("user", req.User, api.MaxUserBytes); err != nil {
		return nil, err
	}
	for i, k := range req.Keys {
		if k == "" {
			return nil, badParam("keys", "key %d is empty", i)
		}
	}
	return &req, nil
}
