package instrument

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// TestControllerForecast: v1/controllers counts the retries due in each of
// the next 60 seconds after serverTime; a retry further out counts as
// pending only, and a retry already due not at all.
func TestControllerForecast(t *testing.T) {
	e := newHTEnv(t)
	hp := e.probe("herd", true, nil)
	hp.run("ns/due", reconcile.Result{RequeueAfter: time.Millisecond}, nil) // due by the time we ask
	for key, d := range map[string]time.Duration{
		"ns/a": 1500 * time.Millisecond, "ns/b": 1700 * time.Millisecond,
		"ns/c": 30 * time.Second, "ns/far": 90 * time.Second,
	} {
		hp.run(key, reconcile.Result{RequeueAfter: d}, nil)
	}
	var list api.ControllerList
	getJSON(t, e, "v1/controllers", &list)
	if len(list.Controllers) != 1 {
		t.Fatalf("controllers = %d, want 1", len(list.Controllers))
	}
	c := list.Controllers[0]
	if len(c.Forecast) != api.ForecastSeconds {
		t.Fatalf("forecast has %d buckets, want %d", len(c.Forecast), api.ForecastSeconds)
	}
	// The expected buckets, from each key's own nextRetryAt.
	want := make([]int, api.ForecastSeconds)
	for _, key := range []string{"ns/a", "ns/b", "ns/c"} {
		var d api.KeyDetail
		getJSON(t, e, "v1/key?key="+key, &d)
		i := int(d.NextRetryAt.Sub(list.ServerTime) / time.Second)
		if i < 0 || i >= api.ForecastSeconds {
			t.Fatalf("%s is due at +%v, outside the forecast", key, d.NextRetryAt.Sub(list.ServerTime))
		}
		want[i]++
	}
	for i := range want {
		if c.Forecast[i] != want[i] {
			t.Errorf("forecast[%d] = %d, want %d (forecast %v)", i, c.Forecast[i], want[i], c.Forecast)
		}
	}
	if c.Pending != 4 {
		t.Errorf("pending = %d, want 4 (a, b, c and far; not the due key)", c.Pending)
	}
}

// getJSON GETs path from e's handler and decodes the JSON answer into out.
func getJSON(t *testing.T, e *htEnv, path string, out any) {
	t.Helper()
	rec := httptestGet(e, path)
	if rec.Code != 200 {
		t.Fatalf("GET %s: %d %s", path, rec.Code, rec.Body)
	}
	if err := json.Unmarshal(rec.Body.Bytes(), out); err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
}

func httptestGet(e *htEnv, path string) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	e.h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "http://127.0.0.1"+api.DefaultPrefix+path, nil))
	return rec
}
