package snapshot

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector"
)

// pagesFile is a snapshot of one replica whose controller has n keys.
func pagesFile(n int) *File {
	at := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	ep := Endpoint{Name: "ctrl-0", ServerTime: at, Controllers: []api.Controller{{Name: "widget", Keys: n}}}
	for i := range n {
		ep.Keys = append(ep.Keys, api.Key{Controller: "widget", Key: fmt.Sprintf("default/w-%03d", i), State: api.StateIdle})
	}
	return &File{Kind: Kind, FormatVersion: FormatVersion, WireAPI: api.APIVersion, TakenAt: at, Endpoints: []Endpoint{ep}}
}

// TestKeyPagesWalksASnapshot: KeyPages follows the snapshot server's
// continue tokens through every page: 25 keys at 10 a page are 3 pages.
func TestKeyPagesWalksASnapshot(t *testing.T) {
	s := Session(pagesFile(25))
	var sizes []int
	var keys []string
	err := s.Endpoints()[0].Client.KeyPages(context.Background(), inspector.KeyQuery{Sort: api.SortKey, Limit: 10}, func(l *api.KeyList) error {
		sizes = append(sizes, len(l.Items))
		for _, k := range l.Items {
			keys = append(keys, k.Key)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(sizes) != "[10 10 5]" || len(keys) != 25 || keys[0] != "default/w-000" || keys[24] != "default/w-024" {
		t.Errorf("pages of %v, %d keys (%v … %v); want [10 10 5], default/w-000 … default/w-024", sizes, len(keys), keys[:1], keys[len(keys)-1:])
	}
}

// TestSnapshotRefusesUnknownParameters: an unknown parameter is a 400
// naming it, on every endpoint of a snapshot, as on the instrument's.
func TestSnapshotRefusesUnknownParameters(t *testing.T) {
	srv := newServer(&pagesFile(3).Endpoints[0])
	for _, path := range []string{"v1/keys?bogus=1", "v1/errors?limit=5", "v1/key?key=default/w-001&sort=key", "v1/controllers?q=x"} {
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "http://"+inspector.InProcessHost+api.DefaultPrefix+path, nil))
		var body api.ErrorResponse
		if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil || w.Code != http.StatusBadRequest || body.Error.Field == "" {
			t.Errorf("GET %s: %d %s; want a 400 naming the parameter", path, w.Code, w.Body)
		}
	}
}
