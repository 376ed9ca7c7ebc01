package instrument

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// The htEnv's requests: served by its handler in process, as a client sees them.

// do serves one request and decodes the JSON answer. Every response must say
// it is JSON.
//
// A read answered 429 is sent again after its Retry-After, as a client
// does, for up to waitFor: the endpoint paces its readers by design (a read
// slot rests up to nine times its read, a list slot four), and on a loaded
// machine a process stall across a slot's rest and a waiting read's
// deadline answers even one reader in a row busy. No test here is about
// that pacing (the query package's are).
func (e *htEnv) do(h http.Handler, method, target, body string) (int, http.Header, map[string]any) {
	e.t.Helper()
	deadline := time.Now().Add(waitFor)
	for {
		code, hdr, m := e.doOnce(h, method, target, body)
		if code != http.StatusTooManyRequests || method != http.MethodGet || time.Now().After(deadline) {
			return code, hdr, m
		}
		retry := time.Second
		if secs, err := strconv.Atoi(hdr.Get("Retry-After")); err == nil && secs > 0 && secs <= 5 {
			retry = time.Duration(secs) * time.Second
		}
		time.Sleep(retry) // what the endpoint asked for
	}
}

// doOnce is one request of do.
func (e *htEnv) doOnce(h http.Handler, method, target, body string) (int, http.Header, map[string]any) {
	e.t.Helper()
	var req *http.Request
	if body != "" {
		req = httptest.NewRequest(method, "http://127.0.0.1"+target, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
	} else {
		req = httptest.NewRequest(method, "http://127.0.0.1"+target, nil)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if got := rec.Header().Get("Content-Type"); got != "application/json" {
		e.t.Errorf("%s %s: Content-Type = %q, want application/json", method, target, got)
	}
	var m map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &m); err != nil {
		e.t.Fatalf("%s %s: body is not a JSON object: %v\n%s", method, target, err, rec.Body)
	}
	return rec.Code, rec.Header(), m
}

// get is do for a GET that must succeed.
func (e *htEnv) get(target string) map[string]any {
	e.t.Helper()
	code, _, m := e.do(e.h, http.MethodGet, api.DefaultPrefix+target, "")
	if code != http.StatusOK {
		e.t.Fatalf("GET %s: status = %d, want 200: %v", target, code, m)
	}
	return m
}
