package fleet

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument"
)

// serve answers every query with code and body, and records the requests.
func serve(t *testing.T, code int, body string) (*Client, *[]*http.Request) {
	t.Helper()
	var (
		mu  sync.Mutex
		got []*http.Request
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		mu.Lock()
		got = append(got, r)
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		_, _ = w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	c, err := NewClient(Config{URL: srv.URL + "/prefix/", BearerToken: "tok"})
	if err != nil {
		t.Fatal(err)
	}
	return c, &got
}

func TestQueryKeepsTheServersWords(t *testing.T) {
	for _, tc := range []struct {
		name, body, want string
		code             int
	}{
		{"promql error", `{"status":"error","errorType":"bad_data","error":"1:5: parse error: unexpected identifier"}`, "prometheus answered 400 (bad_data): 1:5: parse error: unexpected identifier", 400},
		{"5xx from a proxy", "<html>\n502 Bad Gateway</html>", "prometheus answered 502: <html>", 502},
		{"timeout", `{"status":"error","errorType":"timeout","error":"query timed out in expression evaluation"}`, "(timeout): query timed out", 503},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, _ := serve(t, tc.code, tc.body)
			_, err := c.Query(context.Background(), "up", time.Unix(100, 0))
			var apiErr *APIError
			if !errors.As(err, &apiErr) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want an APIError containing %q", err, tc.want)
			}
		})
	}
}

func TestQuerySendsTimeAuthAndKeepsWarnings(t *testing.T) {
	c, reqs := serve(t, 200, `{"status":"success","warnings":["store 10.0.0.1:10901 unavailable"],"data":{"resultType":"vector","result":[{"metric":{"cluster":"a"},"value":[100,"3"]}]}}`)
	r, err := c.Query(context.Background(), "up", time.UnixMilli(100_250))
	if err != nil {
		t.Fatal(err)
	}
	if e, a := "store 10.0.0.1:10901 unavailable", strings.Join(r.Warnings, ";"); e != a {
		t.Errorf("warnings: want %q, got %q", e, a)
	}
	if len(r.Samples) != 1 || r.Samples[0].Value != 3 || r.Samples[0].Labels["cluster"] != "a" {
		t.Errorf("samples: got %+v", r.Samples)
	}
	req := (*reqs)[0]
	if e, a := "/prefix/api/v1/query", req.URL.Path; e != a {
		t.Errorf("path: want %q, got %q", e, a)
	}
	if e, a := "100.250", req.PostForm.Get("time"); e != a {
		t.Errorf("time: want %q, got %q", e, a)
	}
	if e, a := "Bearer tok", req.Header.Get("Authorization"); e != a {
		t.Errorf("auth: want %q, got %q", e, a)
	}
}

func TestNewClientRefuses(t *testing.T) {
	for _, cfg := range []Config{
		{URL: "prometheus:9090"},
		{URL: "http://p", BearerToken: "t", Username: "u"},
		{URL: "http://p", CAFile: "/nonexistent"},
	} {
		if _, err := NewClient(cfg); err == nil {
			t.Errorf("%+v: want an error", cfg)
		}
	}
}

// TestReadIsOneQueryPerPanel: the number of queries is the panels',
// whatever the number of controllers.
func TestReadIsOneQueryPerPanel(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"status":"success","data":{"resultType":"vector","result":[`)
	for i := range 500 {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`{"metric":{"cluster":"c","namespace":"n","controller":"x` + string(rune('a'+i%26)) + strings.Repeat("y", i/26) + `","backoff_column":"oldest_failure_seconds"},"value":[1,"` + "5" + `"]}`)
	}
	b.WriteString(`]}}`)
	c, reqs := serve(t, 200, b.String())
	f, err := Read(context.Background(), c, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if e, a := len(Queries("cluster")), len(*reqs); e != a || f.Queries != e {
		t.Errorf("queries: want %d, got %d (reported %d)", e, a, f.Queries)
	}
	if e, a := 500, len(f.Rows); e != a {
		t.Errorf("rows: want %d, got %d", e, a)
	}
}

// TestReadSaysAnUnreachableServerOnce: both panels fail alike; the error
// says so once, naming the server once.
func TestReadSaysAnUnreachableServerOnce(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	c, err := NewClient(Config{URL: url})
	if err != nil {
		t.Fatal(err)
	}
	_, err = Read(context.Background(), c, Options{})
	if err == nil || strings.Count(err.Error(), url) != 1 || !strings.Contains(err.Error(), "connection refused") {
		t.Errorf("got %v, want the server named once and its refusal", err)
	}
}

// TestFoldDelays: the delay panel's count, sum and count under the long
// bound become a row's retries, mean and long retries; a series left out
// (0) counts 0; a sum without its count is no figure.
func TestFoldDelays(t *testing.T) {
	row := func(c string) map[string]string {
		return map[string]string{"cluster": "east", "namespace": "demo", "controller": c}
	}
	with := func(l map[string]string, col string) map[string]string {
		m := map[string]string{columnLabel: col}
		for k, v := range l {
			m[k] = v
		}
		return m
	}
	rows := map[string]*Row{}
	for _, c := range []string{"mixed", "all-long", "torn", "idle"} {
		r := &Row{Cluster: "east", Namespace: "demo", Controller: c}
		rows[r.ID()] = r
	}
	foldDelays([]Sample{
		{Labels: with(row("mixed"), colDelays), Value: 10},
		{Labels: with(row("mixed"), colDelaySum), Value: 2500},
		{Labels: with(row("mixed"), colShortDelays), Value: 8},
		{Labels: with(row("all-long"), colDelays), Value: 3},
		{Labels: with(row("all-long"), colDelaySum), Value: 3000},
		{Labels: with(row("torn"), colDelaySum), Value: 5},
		{Labels: with(row("gone"), colDelays), Value: 1},
	}, rows, "cluster")
	for c, want := range map[string]*RetryDelays{
		"mixed":    {Retries: 10, MeanSeconds: 250, Long: 2},
		"all-long": {Retries: 3, MeanSeconds: 1000, Long: 3},
		"torn":     nil,
		"idle":     nil,
	} {
		got := rows["east/demo/"+c].RetryDelays
		if (got == nil) != (want == nil) || got != nil && *got != *want {
			t.Errorf("%s: got %+v, want %+v", c, got, want)
		}
	}
}

// TestQueryAtABackoffEndpointSaysSo points the client at an instrumented
// controller's endpoint (the demo prints its /metrics "for Prometheus to
// scrape, then fleet", and a newcomer gives fleet that address): the
// instrument's own 404 must not read as a broken Prometheus, but say what
// --prometheus takes and how the endpoint itself is read.
func TestQueryAtABackoffEndpointSaysSo(t *testing.T) {
	srv := httptest.NewServer(instrument.Handler())
	t.Cleanup(srv.Close)
	for _, base := range []string{srv.URL, srv.URL + "/metrics", srv.URL + "/debug/backoff/"} {
		c, err := NewClient(Config{URL: base})
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.Query(context.Background(), "up", time.Unix(100, 0))
		np, ok := errors.AsType[*NotPrometheusError](err)
		if !ok {
			t.Fatalf("%s: got %v; want a NotPrometheusError", base, err)
		}
		if np.Server != strings.TrimSuffix(base, "/") || np.Endpoint != srv.URL || !strings.Contains(err.Error(), "is a kubectl-backoff endpoint, not a Prometheus") {
			t.Errorf("%s: got %+v (%q); want the URL given, the endpoint %s, and what it is", base, np, err, srv.URL)
		}
	}
	// A Prometheus' own 404 (a path prefix it does not serve) stays its words.
	c, _ := serve(t, 404, "404 page not found")
	_, err := c.Query(context.Background(), "up", time.Unix(100, 0))
	if err == nil || strings.Contains(err.Error(), "kubectl-backoff endpoint") {
		t.Errorf("a plain 404: got %v, want the server's words", err)
	}
}
