package inspector

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/query"
)

// maxResponseBytes bounds what a client reads from an endpoint.
const maxResponseBytes = 32 << 20

// Retrying a busy endpoint: it answers 429 with Retry-After when it is
// computing as many lists as it allows. The client waits as told, a few
// times, rather than failing the user's refresh.
const (
	// maxAttempts bounds the tries of one call.
	maxAttempts = 4
	// defaultRetryAfter is the wait when a 429 does not say.
	defaultRetryAfter = time.Second
	// maxRetryAfter caps one wait, whatever the endpoint says.
	maxRetryAfter = 5 * time.Second
)

// DefaultRequestTimeout bounds one request to an endpoint unless told
// otherwise (kubectl's --request-timeout): an endpoint answers in
// milliseconds, so one that has not in 10s is stopped or stuck, and 30s
// of silence told the user nothing sooner.
const DefaultRequestTimeout = 10 * time.Second

// Client calls one instrument endpoint.
type Client struct {
	base *url.URL
	http *http.Client
}

// NewClient returns a client for the endpoint at base, e.g.
// "http://127.0.0.1:8082/debug/backoff/". A base with no path gets
// api.DefaultPrefix. rt may be nil for http.DefaultTransport; pass a
// transport with credentials for an endpoint behind the metrics server's
// authn/authz filter.
func NewClient(base string, rt http.RoundTripper) (*Client, error) {
	u, err := url.Parse(base)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return nil, fmt.Errorf("endpoint %q: want an http(s) URL such as http://127.0.0.1:8082", base)
	}
	if u.Path == "" || u.Path == "/" {
		u.Path = api.DefaultPrefix
	}
	if !strings.HasSuffix(u.Path, "/") {
		u.Path += "/"
	}
	if rt == nil {
		rt = http.DefaultTransport
	}
	return &Client{base: u, http: &http.Client{Transport: rt, Timeout: DefaultRequestTimeout}}, nil
}

// SetTimeout bounds each request to d (DefaultRequestTimeout when d <= 0).
// Call it before the client is used.
func (c *Client) SetTimeout(d time.Duration) {
	if d <= 0 {
		d = DefaultRequestTimeout
	}
	c.http.Timeout = d
}

// Timeout is the bound on each request.
func (c *Client) Timeout() time.Duration { return c.http.Timeout }

// URL is the endpoint's base URL.
func (c *Client) URL() string { return c.base.String() }

// KeyQuery selects a page of keys, as v1/keys takes it.
type KeyQuery struct {
	Controller string
	Q          string
	// Error, in Q's syntax, must match the last error alone (an error
	// group's keys within the user's own Q).
	Error  string
	States []api.State
	Sort   string
	Limit  int
	Offset int
}

// Values encodes the query; empty fields are left to the server's defaults.
func (q KeyQuery) Values() url.Values {
	v := url.Values{}
	set := func(k, s string) {
		if s != "" {
			v.Set(k, s)
		}
	}
	set("controller", q.Controller)
	set("q", q.Q)
	set("error", q.Error)
	set("sort", q.Sort)
	if len(q.States) > 0 {
		s := make([]string, len(q.States))
		for i, st := range q.States {
			s[i] = string(st)
		}
		v.Set("state", strings.Join(s, ","))
	}
	if q.Limit > 0 {
		v.Set("limit", strconv.Itoa(q.Limit))
	}
	if q.Offset > 0 {
		v.Set("offset", strconv.Itoa(q.Offset))
	}
	return v
}

// Controllers calls v1/controllers.
func (c *Client) Controllers(ctx context.Context) (*api.ControllerList, error) {
	var out api.ControllerList
	return &out, c.do(ctx, http.MethodGet, "v1/controllers", nil, nil, &out)
}

// Keys calls v1/keys.
func (c *Client) Keys(ctx context.Context, q KeyQuery) (*api.KeyList, error) {
	var out api.KeyList
	return &out, c.do(ctx, http.MethodGet, "v1/keys", q.Values(), nil, &out)
}

// Key calls v1/key.
func (c *Client) Key(ctx context.Context, controller, key string) (*api.KeyDetail, error) {
	v := url.Values{"key": {key}}
	if controller != "" {
		v.Set("controller", controller)
	}
	var out api.KeyDetail
	return &out, c.do(ctx, http.MethodGet, "v1/key", v, nil, &out)
}

// Errors calls v1/errors: the last errors of the keys f selects, grouped by
// fingerprint, for one controller (all when empty).
func (c *Client) Errors(ctx context.Context, controller string, f api.Filter) (*api.ErrorGroupList, error) {
	var out api.ErrorGroupList
	return &out, c.do(ctx, http.MethodGet, "v1/errors", errorsValues(controller, f), nil, &out)
}

// Forget calls v1/forget.
func (c *Client) Forget(ctx context.Context, req api.ForgetRequest) (*api.ForgetResponse, error) {
	body, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	// nil on error: Session.Forget's answer with an error is a partial one
	// (some replicas forgot), which ForgetEach keeps.
	var out api.ForgetResponse
	if err := c.do(ctx, http.MethodPost, "v1/forget", nil, body, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// do calls the endpoint, retrying a 429 (busy) after the Retry-After it
// names, up to maxAttempts tries.
func (c *Client) do(ctx context.Context, method, path string, q url.Values, body []byte, out any) error {
	u := c.base.JoinPath(path)
	u.RawQuery = q.Encode()
	for attempt := 1; ; attempt++ {
		code, data, retryAfter, err := c.once(ctx, method, u, body)
		if err != nil {
			return err
		}
		if code == http.StatusTooManyRequests && attempt < maxAttempts {
			// A retry the deadline will not see is not waited for.
			if dl, ok := ctx.Deadline(); ok && time.Until(dl) < retryAfter {
				return fmt.Errorf("%s %s: the endpoint is busy and asks for a retry in %v, past this call's deadline: %w", method, u.Redacted(), retryAfter, context.DeadlineExceeded)
			}
			if err := sleepCtx(ctx, retryAfter); err != nil {
				return fmt.Errorf("%s %s: the endpoint is busy, and %w while waiting to retry", method, u.Redacted(), err)
			}
			continue
		}
		if code != http.StatusOK {
			e := newAPIError(method, u, code, data)
			if code == http.StatusTooManyRequests {
				e.Message += fmt.Sprintf(" (tried %d times)", attempt)
			}
			return e
		}
		if err := json.Unmarshal(data, out); err != nil {
			return fmt.Errorf("%s %s: not a backoff endpoint response: %w", method, u.Redacted(), err)
		}
		return nil
	}
}

// once sends one request and reads the answer, and the wait a 429 asks for.
func (c *Client) once(ctx context.Context, method string, u *url.URL, body []byte) (int, []byte, time.Duration, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, u.String(), rd)
	if err != nil {
		return 0, nil, 0, err
	}
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return 0, nil, 0, fmt.Errorf("%s %s: %w", method, u.Redacted(), err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes))
	if err != nil {
		return 0, nil, 0, fmt.Errorf("%s %s: reading response: %w", method, u.Redacted(), err)
	}
	return resp.StatusCode, data, retryAfter(resp.Header.Get("Retry-After")), nil
}

// retryAfter reads a Retry-After value: seconds or an HTTP date, capped at
// maxRetryAfter; defaultRetryAfter when absent or unreadable.
func retryAfter(v string) time.Duration {
	d := defaultRetryAfter
	if secs, err := strconv.Atoi(v); err == nil && secs >= 0 {
		d = time.Duration(secs) * time.Second
	} else if t, err := http.ParseTime(v); err == nil {
		d = max(0, time.Until(t))
	}
	return min(d, maxRetryAfter)
}

// sleepCtx waits d, or until ctx is done.
func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// APIError is an error answer from the endpoint (or from what stands in front
// of it), with a message that says what to do about it.
type APIError struct {
	Code   int
	Reason string
	// Field is the parameter or body field at fault, as the server named it
	// (api.ErrorBody.Field): what a client maps to its own flag.
	Field string
	// Value is the one value of Field the server refused, if it said
	// (api.ErrorBody.Value).
	Value   string
	Message string
	// Problem is, for a 400 naming Field, what is wrong with its value:
	// Message without the parameter's name the v1 body puts before it
	// (parameter "sort": …), for a client that says it under its own name.
	Problem string
	Method  string
	// Path is the URL path, which is what RBAC rules for non-resource URLs name.
	Path string
}

// Error implements error.
func (e *APIError) Error() string {
	return fmt.Sprintf("%s %s: %d %s: %s", e.Method, e.Path, e.Code, e.Reason, e.Message)
}

// IsForbidden reports whether err is a 403 from the endpoint: read-only, or
// refused by the metrics server's authorization filter.
func IsForbidden(err error) bool {
	var e *APIError
	return errors.As(err, &e) && e.Code == http.StatusForbidden
}

func newAPIError(method string, u *url.URL, code int, data []byte) *APIError {
	e := &APIError{Code: code, Method: method, Path: u.Path, Reason: http.StatusText(code)}
	var body api.ErrorResponse
	if json.Unmarshal(data, &body) == nil && body.Error.Message != "" {
		e.Reason, e.Field, e.Value, e.Message = body.Error.Reason, body.Error.Field, body.Error.Value, body.Error.Message
		if e.Field != "" {
			// The wire's one shape for a bad parameter (query.Invalid).
			e.Problem = strings.TrimPrefix(e.Message, query.InvalidPrefix(e.Field))
		}
		return e
	}
	// Not our error shape: controller-runtime's authn/authz filter (plain text)
	// or something else in between. Say what the user needs in words.
	verb := strings.ToLower(method)
	switch code {
	case http.StatusUnauthorized:
		e.Message = "the endpoint needs credentials: it sits behind the metrics server's authentication; " +
			"use a kubeconfig whose user has a bearer token (or exec credentials)"
	case http.StatusForbidden:
		e.Message = fmt.Sprintf("your user may not %q the non-resource URL %q: ask for a (Cluster)Role with "+
			"nonResourceURLs: [%q] and verbs: [%q], bound to you", verb, u.Path, nonResourcePattern(u.Path), verb)
	case http.StatusNotFound:
		// The host too: what answered is a web server, just not this one's endpoint.
		e.Message = fmt.Sprintf("no backoff endpoint at %s%s (is the controller instrumented, and is the prefix right?)", u.Host, u.Path)
	default:
		e.Message = strings.TrimSpace(string(data[:min(len(data), 512)]))
	}
	return e
}

// nonResourcePattern is the rule that grants the whole endpoint: "/debug/backoff/*".
func nonResourcePattern(path string) string {
	if i := strings.Index(path, "/v1/"); i >= 0 {
		return path[:i] + "/*"
	}
	return path
}
