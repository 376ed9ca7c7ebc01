package query

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/query/sourcetest"
)

// keysSource is a Source over keys held as wire values, at one instant: the
// shape of a snapshot, for the handler's own tests.
type keysSource struct {
	at   time.Time
	keys []api.Key
}

func (s *keysSource) Names() []string {
	var names []string
	for _, k := range s.keys {
		if !slices.Contains(names, k.Controller) {
			names = append(names, k.Controller)
		}
	}
	slices.Sort(names)
	return names
}

func (s *keysSource) Now() time.Time { return s.at }

func (s *keysSource) Controllers(context.Context) (*api.ControllerList, error) {
	list := &api.ControllerList{ServerTime: s.at}
	for _, n := range s.Names() {
		list.Controllers = append(list.Controllers, api.Controller{Name: n, Capabilities: api.Capabilities{CanForget: true}})
	}
	return list, nil
}

func (s *keysSource) View(_ context.Context, names []string) (time.Time, View, error) {
	return s.at, KeysView(names, s.keys), nil
}

func (s *keysSource) Key(controller, key string) (*api.KeyDetail, error) {
	var found []api.Key
	for _, k := range s.keys {
		if k.Key == key && (controller == "" || k.Controller == controller) {
			found = append(found, k)
		}
	}
	switch len(found) {
	case 0:
		return nil, NotFound("no key %q", key)
	case 1:
		return &api.KeyDetail{ServerTime: s.at, Key: found[0]}, nil
	}
	return nil, Invalid("controller", "key %q is known to %d controllers: name one", key, len(found))
}

// testKeys are a few keys of two controllers.
func testKeys(at time.Time) *keysSource {
	failed := &api.ErrorRecord{Message: "connection refused", At: at}
	return &keysSource{at: at, keys: []api.Key{
		{Controller: "alpha", Key: "default/a1", State: api.StateBackoff, Failures: 3, LastError: failed},
		{Controller: "alpha", Key: "default/a2", State: api.StateIdle},
		{Controller: "beta", Key: "other/b1", State: api.StateBackoff, Failures: 1, LastError: failed},
	}}
}

// serve serves one request on h and decodes the JSON answer; every answer
// must say it is JSON.
func serve(t *testing.T, h http.Handler, method, target, body string) (int, http.Header, map[string]any) {
	t.Helper()
	req := httptest.NewRequest(method, "http://127.0.0.1"+target, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if got := rec.Header().Get("Content-Type"); got != "application/json" {
		t.Errorf("%s %s: Content-Type = %q, want application/json", method, target, got)
	}
	var m map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &m); err != nil {
		t.Fatalf("%s %s: body is not a JSON object: %v\n%s", method, target, err, rec.Body)
	}
	return rec.Code, rec.Header(), m
}

// checkError checks the one error shape: status, the code in the body,
// reason, and a message naming what is at fault (wantWords).
func checkError(t *testing.T, what string, code int, m map[string]any, wantCode int, wantReason, wantWords string) {
	t.Helper()
	body, _ := m["error"].(map[string]any)
	msg, _ := body["message"].(string)
	if code != wantCode || body["code"] != float64(wantCode) || body["reason"] != wantReason || !strings.Contains(msg, wantWords) {
		t.Errorf("%s: %d %v, want %d %s mentioning %q", what, code, body, wantCode, wantReason, wantWords)
	}
}

// TestKeysViewScansEveryKeyOnce: a KeysView hands over every key of the
// controllers named, by their index, in batches it reuses, and leaves out
// keys of controllers not named.
func TestKeysViewScansEveryKeyOnce(t *testing.T) {
	var keys []api.Key
	for i := range 600 {
		c := []string{"a", "b", "c"}[i%3]
		keys = append(keys, api.Key{Controller: c, Key: strings.Repeat("k", i%7+1) + string(rune('0'+i%10))})
	}
	v := KeysView([]string{"c", "a"}, keys)
	seen := map[int]int{}
	err := v.Scan(context.Background(), func(ctrl int, batch []Item) error {
		if len(batch) > batchSize {
			t.Errorf("batch of %d, over %d", len(batch), batchSize)
		}
		for i := range batch {
			k, _ := v.Brief(ctrl, &batch[i])
			if want := []string{"c", "a"}[ctrl]; k.Controller != want {
				t.Errorf("key %s of %s offered as controller %d (%s)", k.Key, k.Controller, ctrl, want)
			}
			seen[batch[i].Ref]++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) != 400 {
		t.Errorf("scanned %d keys, want the 400 of a and c", len(seen))
	}
	for ref, n := range seen {
		if n != 1 || keys[ref].Controller == "b" {
			t.Errorf("key %d (%s) seen %d times", ref, keys[ref].Controller, n)
		}
	}
}

// TestConformance: the engine over keysSource, the handler's own test
// source, passes the suite every v1 source runs.
func TestConformance(t *testing.T) {
	sourcetest.Run(t, func(t *testing.T, keys []sourcetest.Key) http.Handler {
		at := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
		src := &keysSource{at: at}
		for _, k := range keys {
			src.keys = append(src.keys, api.Key{Controller: k.Controller, Key: k.Key, State: api.StateBackoff, Failures: k.Failures,
				LastError: &api.ErrorRecord{Message: k.Error, At: at.Add(-time.Second)}, NextRetryAt: at.Add(time.Minute)})
		}
		return NewHandler(src, Options{Clock: clocktesting.NewFakeClock(at), MaxRequestsPerSecond: -1})
	})
}
