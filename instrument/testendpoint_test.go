package instrument

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strconv"
	"testing"
	"time"

	"github.com/go-logr/logr"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// This file holds the tests' endpoint: NewHandler served over real HTTP,
// read as a client reads it, decoded into the wire types.

// testEndpoint is an httptest server on NewHandler with a fresh Registry: tests
// build probes in Registry and read them back as a client would.
type testEndpoint struct {
	t        testing.TB
	Registry *Registry
	base     string // the server URL with DefaultPrefix
}

// newTestEndpoint starts the endpoint; it is closed when the test ends.
func newTestEndpoint(t testing.TB) *testEndpoint {
	t.Helper()
	reg := NewRegistry()
	log := logr.Discard()
	srv := httptest.NewServer(NewHandler(HandlerOptions{Registry: reg, Logger: &log}))
	t.Cleanup(srv.Close)
	return &testEndpoint{t: t, Registry: reg, base: srv.URL + api.DefaultPrefix}
}

// do sends a request to path (relative to the prefix) with body encoded as
// JSON, and decodes a 2xx response into out. It returns the status code and,
// for an error status, the decoded error body.
//
// A read answered 429 is sent again after its Retry-After, as a client
// does, for up to waitFor: the endpoint keeps its readers to a fifth of a
// core, and on a loaded machine (-race, 2 cores, a real controller beside
// it) reads stretched past ~100ms make it answer a harness polling every
// few milliseconds busy, as it should (TestKeysStateFilterUnderChurn got
// such a 429 from its own server).
func (e *testEndpoint) do(method, path string, body, out any) (int, api.ErrorBody) {
	e.t.Helper()
	deadline := time.Now().Add(waitFor)
	for {
		code, eb, retry := e.doOnce(method, path, body, out)
		if code != http.StatusTooManyRequests || method != http.MethodGet || time.Now().After(deadline) {
			return code, eb
		}
		time.Sleep(retry) // what the endpoint asked for
	}
}

// doOnce is one request of do; for a 429, retry is its Retry-After.
func (e *testEndpoint) doOnce(method, path string, body, out any) (code int, eb api.ErrorBody, retry time.Duration) {
	e.t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			e.t.Fatalf("encode %s body: %v", path, err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, e.base+path, rd)
	if err != nil {
		e.t.Fatalf("%s %s: %v", method, path, err)
	}
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	if got, want := resp.Header.Get("Content-Type"), "application/json"; got != want {
		e.t.Fatalf("%s %s: Content-Type = %q, want %q", method, path, got, want)
	}
	dec := json.NewDecoder(resp.Body)
	if resp.StatusCode/100 != 2 {
		var er api.ErrorResponse
		if err := dec.Decode(&er); err != nil {
			e.t.Fatalf("%s %s: status %d, decode error body: %v", method, path, resp.StatusCode, err)
		}
		if secs, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && secs > 0 && secs <= 5 {
			retry = time.Duration(secs) * time.Second
		} else {
			retry = time.Second
		}
		return resp.StatusCode, er.Error, retry
	}
	if out != nil {
		// Start from zero: decoding into a used value keeps the fields the new
		// response omits (omitempty), mixing two responses.
		reflect.ValueOf(out).Elem().SetZero()
		if err := dec.Decode(out); err != nil {
			e.t.Fatalf("%s %s: decode: %v", method, path, err)
		}
	}
	return resp.StatusCode, api.ErrorBody{}, 0
}

// get GETs path into out and fails the test unless the status is 200.
func (e *testEndpoint) get(path string, out any) {
	e.t.Helper()
	if code, eb := e.do(http.MethodGet, path, nil, out); code != http.StatusOK {
		e.t.Fatalf("GET %s: status %d (%s: %s), want 200", path, code, eb.Reason, eb.Message)
	}
}

// key returns controller's key with its history, and false if the endpoint
// does not know it (yet).
func (e *testEndpoint) key(controller, key string) (api.KeyDetail, bool) {
	e.t.Helper()
	var k api.KeyDetail
	path := "v1/key?" + url.Values{"controller": {controller}, "key": {key}}.Encode()
	switch code, eb := e.do(http.MethodGet, path, nil, &k); code {
	case http.StatusOK:
		return k, true
	case http.StatusNotFound:
		return api.KeyDetail{}, false
	default:
		e.t.Fatalf("GET %s: status %d (%s: %s)", path, code, eb.Reason, eb.Message)
		return api.KeyDetail{}, false
	}
}

// mustKey is key for a key that must exist.
func (e *testEndpoint) mustKey(controller, key string) api.KeyDetail {
	e.t.Helper()
	k, ok := e.key(controller, key)
	if !ok {
		e.t.Fatalf("controller %q: key %q not found", controller, key)
	}
	return k
}

// controller returns the v1/controllers entry named name.
func (e *testEndpoint) controller(name string) api.Controller {
	e.t.Helper()
	var list api.ControllerList
	e.get("v1/controllers", &list)
	for _, c := range list.Controllers {
		if c.Name == name {
			return c
		}
	}
	e.t.Fatalf("v1/controllers does not list %q (got %d controllers)", name, len(list.Controllers))
	return api.Controller{}
}

// forget POSTs req to v1/forget and fails the test unless the status is 200.
func (e *testEndpoint) forget(req api.ForgetRequest) api.ForgetResponse {
	e.t.Helper()
	var resp api.ForgetResponse
	if code, eb := e.do(http.MethodPost, "v1/forget", req, &resp); code != http.StatusOK {
		e.t.Fatalf("POST v1/forget: status %d (%s: %s), want 200", code, eb.Reason, eb.Message)
	}
	return resp
}
