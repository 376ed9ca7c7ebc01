package demo

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/logs"
)

// replayWithLog replays opts' world for elapsed with its controllers'
// log, and serves its endpoint; both close when the test ends.
func replayWithLog(t *testing.T, opts Options, elapsed time.Duration) (*Replay, *httptest.Server, *bytes.Buffer) {
	t.Helper()
	log := &bytes.Buffer{}
	opts.ControllerLog = log
	r, err := newReplay(opts, replayStart, elapsed)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	srv := httptest.NewServer(r.Handler())
	t.Cleanup(srv.Close)
	return r, srv, log
}

// readReplayLog reads the replay's log into a store whose now is the
// replay's clock, as `kubectl backoff --from-logs` reads a log being
// written.
func readReplayLog(t *testing.T, r *Replay, log *bytes.Buffer) *logs.Store {
	t.Helper()
	store := logs.NewStore(logs.Options{Live: true, Clock: r.Clock})
	if _, _, err := store.Read(context.Background(), log); err != nil {
		t.Fatalf("Read: %v", err)
	}
	return store
}

// listKeys is the endpoint's v1/keys?limit=1000&QUERY.
func listKeys(t *testing.T, srv *httptest.Server, query string) []api.Key {
	t.Helper()
	resp, err := http.Get(srv.URL + api.DefaultPrefix + "v1/keys?limit=1000&" + query)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var list api.KeyList
	if err := json.NewDecoder(resp.Body).Decode(&list); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("v1/keys: %d %v", resp.StatusCode, err)
	}
	return list.Items
}

// getKeys is the endpoint's v1/keys of ctl, by key.
func getKeys(t *testing.T, srv *httptest.Server, ctl string) map[string]api.Key {
	t.Helper()
	out := map[string]api.Key{}
	for _, k := range listKeys(t, srv, "controller="+ctl) {
		out[k.Key] = k
	}
	return out
}

// TestReplayLogNamesTheKind: a Replay's log carries what controller-runtime's
// builder adds to every reconciler line (pkg/builder/controller.go:
// controllerGroup, controllerKind, and the object under its kind's key), as
// the live demo's does, so that kick --from-logs finds the kind.
func TestReplayLogNamesTheKind(t *testing.T) {
	opts := DefaultOptions()
	opts.Seed = 7
	_, _, log := replayWithLog(t, opts, time.Minute)
	n := 0
	for _, line := range bytes.Split(log.Bytes(), []byte("\n")) {
		r, ok := logs.Parse(line, time.Now())
		if !ok || r.What != logs.ErrorLine {
			continue
		}
		n++
		if r.Kind != "ConfigMap" || r.Group != "" {
			t.Fatalf("kind %q, group %q; want ConfigMap of the core group: %s", r.Kind, r.Group, line)
		}
		if !bytes.Contains(line, []byte(`"ConfigMap":{"name":"`+r.Name+`","namespace":"`+r.Namespace+`"}`)) {
			t.Fatalf("no ConfigMap key with the object's reference: %s", line)
		}
	}
	if n == 0 {
		t.Fatalf("no Reconciler error line in:\n%s", log)
	}
}
