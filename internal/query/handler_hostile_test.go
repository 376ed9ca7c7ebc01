package query

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// Issue #47 item 10: a request its client closed (or half-closed: the
// server reads it as gone) was answered 500 "context canceled". It is the
// client's doing: 499, never a 5xx.
func TestCancelledRequestIsNoServerError(t *testing.T) {
	h := newTestHandler(errorKeys(), Options{})
	for _, target := range []string{"/v1/keys", "/v1/errors", "/v1/controllers", "/v1/keys?q=~x.*y"} {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		req := httptest.NewRequest(http.MethodGet, "http://127.0.0.1"+api.DefaultPrefix+strings.TrimPrefix(target, "/"), nil).WithContext(ctx)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code >= 500 {
			t.Errorf("GET %s, cancelled: %d %s; want no 5xx", target, rec.Code, rec.Body)
		}
	}
	if b := Body(context.Canceled); b.Error.Code != 499 || b.Error.Reason != "ClientClosedRequest" {
		t.Errorf("Body(context.Canceled) = %+v, want 499 ClientClosedRequest", b.Error)
	}
}

// Issue #47 item 11: every doubled parameter is a 400, as a doubled limit
// was (watch=true&watch=false and a doubled resourceVersion were taken,
// first wins); a position from the future is a 400, not "too old"; every
// Origin header is checked, not the first.
func TestDoubledWatchParametersAndFuturePositions(t *testing.T) {
	h := newTestHandler(errorKeys(), Options{})
	defer h.CloseWatches()
	for _, tt := range []struct{ query, field string }{
		{"watch=true&watch=false", "watch"},
		{"watch=false&watch=true", "watch"},
		{"watch=true&resourceVersion=a-1&resourceVersion=a-2", "resourceVersion"},
		{"limit=1&limit=2", "limit"},
	} {
		// Bounded: a doubled watch taken as a watch streams until its
		// request ends.
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		req := httptest.NewRequest(http.MethodGet, "http://127.0.0.1"+api.DefaultPrefix+"v1/keys?"+tt.query, nil).WithContext(ctx)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		cancel()
		var m struct{ Error api.ErrorBody }
		_ = json.Unmarshal(rec.Body.Bytes(), &m)
		if rec.Code != http.StatusBadRequest || m.Error.Field != tt.field {
			t.Errorf("%s: %d %s; want 400 naming %s", tt.query, rec.Code, rec.Body, tt.field)
		}
	}

	// A watch is open (so its hub is): a position past its own is refused
	// as not given, 400, where one of another epoch is 410.
	spec, err := h.keysWatch(url.Values{})
	if err != nil {
		t.Fatal(err)
	}
	hb, wt, _, err := h.subscribe(context.Background(), spec, "")
	if err != nil {
		t.Fatal(err)
	}
	defer hb.leave(wt)
	future := hb.epoch + "-99"
	for rv, want := range map[string]int{future: http.StatusBadRequest, "zzz-0": http.StatusGone} {
		_, _, _, err := h.subscribe(context.Background(), spec, rv)
		b := Body(err)
		if b.Error.Code != want || (want == http.StatusBadRequest && strings.Contains(b.Error.Message, "too old")) {
			t.Errorf("resourceVersion %s: %+v, want %d", rv, b.Error, want)
		}
	}
}

func TestEveryOriginIsChecked(t *testing.T) {
	h := newTestHandler(errorKeys(), Options{})
	req := httptest.NewRequest(http.MethodGet, "http://127.0.0.1"+api.DefaultPrefix+"v1/keys", nil)
	req.Header.Add("Origin", "http://127.0.0.1")
	req.Header.Add("Origin", "http://evil.example")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	var m map[string]any
	_ = json.Unmarshal(rec.Body.Bytes(), &m)
	if rec.Code != http.StatusForbidden || !strings.Contains(rec.Body.String(), "evil.example") {
		t.Errorf("two Origin headers, the second foreign: %d %s; want 403 naming it", rec.Code, rec.Body)
	}
}
