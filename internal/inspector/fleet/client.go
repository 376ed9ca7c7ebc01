package fleet

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// Config says how to reach a Prometheus HTTP API.
type Config struct {
	// URL is the server's base URL (https://prometheus:9090, or a path
	// prefix such as https://mimir/prometheus); /api/v1/query is added.
	URL string
	// BearerToken, if set, is sent as "Authorization: Bearer".
	BearerToken string
	// Username and Password, if Username is set, are sent as basic auth.
	Username, Password string
	// CAFile, if set, is the PEM bundle the server's certificate is checked
	// against instead of the system's roots.
	CAFile string
	// Insecure skips the check of the server's certificate.
	Insecure bool
	// Timeout bounds one query, the server's evaluation included (it is
	// sent as the query's timeout too). Defaults to 30 seconds if unset.
	Timeout time.Duration
}

// Client queries one Prometheus HTTP API.
type Client struct {
	base    *url.URL
	http    *http.Client
	cfg     Config
	timeout time.Duration
}

// NewClient checks cfg and returns a client for it; it sends nothing.
func NewClient(cfg Config) (*Client, error) {
	u, err := url.Parse(cfg.URL)
	if err != nil {
		return nil, fmt.Errorf("prometheus URL %q: %w", cfg.URL, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return nil, fmt.Errorf("prometheus URL %q: want http(s)://host[:port][/prefix]", cfg.URL)
	}
	if cfg.BearerToken != "" && cfg.Username != "" {
		return nil, errors.New("a bearer token and basic auth exclude each other")
	}
	tlsConf := &tls.Config{InsecureSkipVerify: cfg.Insecure} //nolint:gosec // asked for by the user
	if cfg.CAFile != "" {
		pem, err := os.ReadFile(cfg.CAFile)
		if err != nil {
			return nil, &CAFileError{Err: err}
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, &CAFileError{Err: fmt.Errorf("%s: no PEM certificate in it", cfg.CAFile)}
		}
		tlsConf.RootCAs = pool
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.TLSClientConfig = tlsConf
	timeout := cfg.Timeout
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	u.Path = strings.TrimSuffix(u.Path, "/")
	return &Client{base: u, http: &http.Client{Transport: tr}, cfg: cfg, timeout: timeout}, nil
}

// CAFileError is Config.CAFile unreadable, or holding no certificate: the
// caller names its own flag for it.
type CAFileError struct{ Err error }

func (e *CAFileError) Error() string { return "certificate authority: " + e.Err.Error() }

// Unwrap is the file's error.
func (e *CAFileError) Unwrap() error { return e.Err }

// Server is the server's URL as the user gave it, credentials left out.
func (c *Client) Server() string {
	u := *c.base
	u.User = nil
	return u.String()
}

// Sample is one series of an instant vector: its labels and value.
type Sample struct {
	Labels map[string]string
	Value  float64
}

// Result is one instant query's answer.
type Result struct {
	Samples []Sample
	// Warnings are the server's own (Thanos' partial response: a store
	// that did not answer), as it wrote them.
	Warnings []string
}

// APIError is an answer the server gave instead of data: its HTTP status,
// its errorType ("bad_data", "execution", "timeout"...) and its own message.
type APIError struct {
	Status  int
	Type    string
	Message string
}

func (e *APIError) Error() string {
	if e.Type != "" {
		return fmt.Sprintf("prometheus answered %d (%s): %s", e.Status, e.Type, e.Message)
	}
	return fmt.Sprintf("prometheus answered %d: %s", e.Status, e.Message)
}

// maxBody bounds what one answer may be: 3 clusters × 1,000 controllers of
// the table are about 6 MB of JSON.
const maxBody = 256 << 20

// Query evaluates promql as an instant query at at.
func (c *Client) Query(ctx context.Context, promql string, at time.Time) (*Result, error) {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	form := url.Values{
		"query":   {promql},
		"time":    {strconv.FormatFloat(float64(at.UnixMilli())/1e3, 'f', 3, 64)},
		"timeout": {c.timeout.String()},
	}
	// POST, as Grafana does: the table's query is longer than some proxies
	// accept in a URL.
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base.String()+"/api/v1/query", strings.NewReader(form.Encode()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	code, body, err := c.do(req)
	if err != nil {
		return nil, err
	}
	r, err := decode(code, body)
	if err != nil && isBackoffEndpoint(body) {
		return nil, c.notPrometheus()
	}
	return r, err
}

// do sends req with the client's credentials and returns the answer's
// status and body.
func (c *Client) do(req *http.Request) (int, []byte, error) {
	req.Header.Set("Accept", "application/json")
	switch {
	case c.cfg.BearerToken != "":
		req.Header.Set("Authorization", "Bearer "+c.cfg.BearerToken)
	case c.cfg.Username != "":
		req.SetBasicAuth(c.cfg.Username, c.cfg.Password)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		// url.Error repeats the method and the URL, already said here.
		if ue, ok := errors.AsType[*url.Error](err); ok {
			err = ue.Err
		}
		return 0, nil, fmt.Errorf("prometheus at %s: %w", c.Server(), err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBody))
	if err != nil {
		return 0, nil, fmt.Errorf("prometheus at %s: reading the answer: %w", c.Server(), err)
	}
	return resp.StatusCode, body, nil
}

// isBackoffEndpoint reports whether body is the instrument's own error
// shape rather than Prometheus' envelope: --prometheus was given the
// endpoint of an instrumented controller (the demo prints its /metrics for
// Prometheus to scrape), whose 404 alone would read as a broken Prometheus.
func isBackoffEndpoint(body []byte) bool {
	var e api.ErrorResponse
	return json.Unmarshal(body, &e) == nil && e.Error.Code != 0 && e.Error.Reason != ""
}

// NotPrometheusError is an answer from an instrumented controller's own
// endpoint where a Prometheus was expected: the CLI says which flag to
// change, and how that endpoint is read instead.
type NotPrometheusError struct {
	// Server is the URL given, credentials left out; Endpoint its scheme
	// and host alone, as a client of the endpoint takes it.
	Server, Endpoint string
}

func (e *NotPrometheusError) Error() string {
	return e.Server + " is a kubectl-backoff endpoint, not a Prometheus: the fleet is read from a Prometheus (Thanos Query, Mimir) that scrapes the controllers' /metrics"
}

// notPrometheus is the error of an answer from the instrument's endpoint.
func (c *Client) notPrometheus() error {
	u := *c.base
	u.User, u.Path, u.RawQuery = nil, "", ""
	return &NotPrometheusError{Server: c.Server(), Endpoint: u.String()}
}

// answer is the API's envelope.
type answer struct {
	Status    string   `json:"status"`
	ErrorType string   `json:"errorType"`
	Error     string   `json:"error"`
	Warnings  []string `json:"warnings"`
	Data      struct {
		ResultType string `json:"resultType"`
		Result     []struct {
			Metric map[string]string `json:"metric"`
			Value  [2]any            `json:"value"`
		} `json:"result"`
	} `json:"data"`
}

// decode reads an answer of status code. A body that is not the API's
// JSON (a proxy's page, a load balancer's 502) is said in its first line.
func decode(code int, body []byte) (*Result, error) {
	var a answer
	if err := json.Unmarshal(body, &a); err != nil || a.Status == "" {
		return nil, &APIError{Status: code, Message: firstLine(body)}
	}
	if a.Status != "success" {
		return nil, &APIError{Status: code, Type: a.ErrorType, Message: a.Error}
	}
	if a.Data.ResultType != "vector" {
		return nil, &APIError{Status: code, Type: "bad_data", Message: "want an instant vector, got " + a.Data.ResultType}
	}
	r := &Result{Warnings: a.Warnings, Samples: make([]Sample, 0, len(a.Data.Result))}
	for _, s := range a.Data.Result {
		str, _ := s.Value[1].(string)
		v, err := strconv.ParseFloat(str, 64)
		if err != nil {
			return nil, &APIError{Status: code, Type: "bad_data", Message: fmt.Sprintf("sample value %q: %v", str, err)}
		}
		r.Samples = append(r.Samples, Sample{Labels: s.Metric, Value: v})
	}
	return r, nil
}

// firstLine is the first non-empty line of body, at most 200 bytes.
func firstLine(body []byte) string {
	for l := range strings.SplitSeq(string(body), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			if len(l) > 200 {
				l = l[:200] + "…"
			}
			return l
		}
	}
	return "(empty answer)"
}
