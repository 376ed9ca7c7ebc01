package query

import (
	"bufio"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// htmlText is an error text with the characters encoding/json escapes by
// default (for JSON pasted into HTML).
const htmlText = "quota <b>exceeded</b> & retried"

// TestWireLeavesHTMLCharactersAsTheyAre: an error text with <, > and &
// reads on the wire as it was written, in every writer of the endpoint (a
// list, a key, an error, the index, a watch line), not as \u003c, \u003e
// and \u0026; and every answer carries the headers that keep a browser from
// rendering it as HTML, which that escape was for.
func TestWireLeavesHTMLCharactersAsTheyAre(t *testing.T) {
	at := time.Date(2026, 12, 6, 10, 0, 0, 0, time.UTC)
	src := &keysSource{at: at, keys: []api.Key{{Controller: "alpha", Key: "default/a1", State: api.StateBackoff,
		Failures: 2, LastError: &api.ErrorRecord{Message: htmlText, At: at}, NextRetryAt: at.Add(time.Second)}}}
	srv := httptest.NewServer(newTestHandler(src, Options{}))
	t.Cleanup(srv.Close) // after every body is closed: Close waits for the watch to end

	get := func(target, accept string) (*http.Response, string) {
		t.Helper()
		req, err := http.NewRequest(http.MethodGet, srv.URL+api.DefaultPrefix+target, nil)
		if err != nil {
			t.Fatal(err)
		}
		if accept != "" {
			req.Header.Set("Accept", accept)
		}
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { resp.Body.Close() })
		if strings.Contains(target, "watch=true") {
			line, err := bufio.NewReader(resp.Body).ReadString('\n')
			if err != nil {
				t.Fatalf("GET %s: first line: %v", target, err)
			}
			return resp, line
		}
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return resp, string(b)
	}
	for _, c := range []struct {
		what, target, accept string
		code                 int
		want, contentType    string
	}{
		{"a list, compact", "v1/keys", "application/json", 200, htmlText, "application/json"},
		{"a list, indented", "v1/keys", "", 200, htmlText, "application/json"},
		{"a key", "v1/key?controller=alpha&key=default/a1", "", 200, htmlText, "application/json"},
		{"an error", "v1/keys?sort=" + url.QueryEscape(htmlText), "application/json", 400, htmlText, "application/json"},
		{"the index", "", "", 200, "v1/keys?controller=&q=&error=", "application/json"},
		{"a watch line", "v1/keys?watch=true", "", 200, htmlText, "application/x-ndjson"},
	} {
		resp, body := get(c.target, c.accept)
		if resp.StatusCode != c.code {
			t.Errorf("%s: status %d, want %d: %s", c.what, resp.StatusCode, c.code, body)
		}
		if !strings.Contains(body, c.want) {
			t.Errorf("%s: the body does not hold %q as written:\n%s", c.what, c.want, body)
		}
		for _, esc := range []string{`\u003c`, `\u003e`, `\u0026`} {
			if strings.Contains(body, esc) {
				t.Errorf("%s: the body escapes as %s:\n%s", c.what, esc, body)
			}
		}
		if got := resp.Header.Get("Content-Type"); got != c.contentType {
			t.Errorf("%s: Content-Type %q, want %q", c.what, got, c.contentType)
		}
		if got := resp.Header.Get("X-Content-Type-Options"); got != "nosniff" {
			t.Errorf("%s: X-Content-Type-Options %q, want nosniff", c.what, got)
		}
	}
}
