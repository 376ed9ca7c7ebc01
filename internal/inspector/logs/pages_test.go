package logs

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector"
)

// pagesStore reads a log with one controller-runtime "Reconciler error"
// line (zap JSON, the fixture of parse_test.go) per key, n keys.
func pagesStore(t *testing.T, n int) *Store {
	t.Helper()
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, `{"level":"error","ts":1617276479.081,"logger":"controller-runtime.controller","msg":"Reconciler error","controller":"foo","request":"default/bar-%03d","error":"boom"}`+"\n", i)
	}
	s := NewStore(Options{})
	if _, _, err := s.Read(context.Background(), strings.NewReader(b.String())); err != nil {
		t.Fatal(err)
	}
	return s
}

// TestKeyPagesWalksALog: KeyPages follows the log server's continue tokens
// through every page: 25 keys at 10 a page are 3 pages.
func TestKeyPagesWalksALog(t *testing.T) {
	sess := pagesStore(t, 25).Session("logs: test", nil)
	defer sess.Close()
	var sizes []int
	var keys []string
	err := sess.Endpoints()[0].Client.KeyPages(context.Background(), inspector.KeyQuery{Sort: api.SortKey, Limit: 10}, func(l *api.KeyList) error {
		sizes = append(sizes, len(l.Items))
		for _, k := range l.Items {
			keys = append(keys, k.Key)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(sizes) != "[10 10 5]" || len(keys) != 25 || keys[0] != "default/bar-000" || keys[24] != "default/bar-024" {
		t.Errorf("pages of %v, %d keys (%v … %v); want [10 10 5], default/bar-000 … default/bar-024", sizes, len(keys), keys[:1], keys[len(keys)-1:])
	}
}

// TestLogServerRefusesUnknownParameters: an unknown parameter is a 400
// naming it, on every endpoint of the log server, as on the instrument's;
// the offset bound is the endpoint's.
func TestLogServerRefusesUnknownParameters(t *testing.T) {
	h := pagesStore(t, 3).Handler()
	for path, field := range map[string]string{
		"v1/keys?bogus=1": "bogus", "v1/errors?limit=5": "limit", "v1/key?key=default/bar-001&sort=key": "sort",
		"v1/controllers?q=x": "q", "v1/keys?offset=1000001": "offset",
	} {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "http://"+inspector.InProcessHost+api.DefaultPrefix+path, nil))
		var body api.ErrorResponse
		if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil || w.Code != http.StatusBadRequest || body.Error.Field != field {
			t.Errorf("GET %s: %d %s; want a 400 naming %q", path, w.Code, w.Body, field)
		}
	}
}
