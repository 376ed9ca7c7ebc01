package instrument

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/query"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// A page of v1/keys is filtered on a scan of the store and its keys are then
// read again in full: a key that moved on in between must not be listed as
// what the filter did not ask for. These tests serve the endpoint on a real
// loopback server and change a key's state while the request is in flight.

// hookSource is the registry's source with a hook run before each Brief:
// between the filter's scan and the page's read, where a key moves on.
type hookSource struct {
	registrySource
	beforeBrief func(key string)
}

func (s hookSource) View(ctx context.Context, names []string) (time.Time, query.View, error) {
	at, v, err := s.registrySource.View(ctx, names)
	return at, hookView{View: v, beforeBrief: s.beforeBrief}, err
}

type hookView struct {
	query.View
	beforeBrief func(key string)
}

func (v hookView) Brief(ctrl int, it *query.Item) (api.Key, bool) {
	v.beforeBrief(it.Key)
	return v.View.Brief(ctrl, it)
}

// consistentServer serves src on loopback, every request computed afresh.
// A request waits for its list slot as long as it takes: each of the two
// slots rests 4 times as long as its list ran, so once a loaded machine
// (-race, the churn's busy loop, other packages' tests) stretches a list
// past about 85ms, the third of three back-to-back requests outwaits the
// default 250ms and is answered 429 (TestKeysStateFilterUnderChurn, seen
// under load); admission is not what these tests are about.
func consistentServer(t *testing.T, src query.Source) string {
	t.Helper()
	srv := httptest.NewServer(query.NewHandler(src, query.Options{States: api.States, Reuse: -1, MaxRequestsPerSecond: -1, AdmissionWait: time.Minute}))
	t.Cleanup(srv.Close)
	return srv.URL + api.DefaultPrefix
}

func getKeys(t *testing.T, url string) api.KeyList {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	var list api.KeyList
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: status %d", url, resp.StatusCode)
	}
	if err := json.NewDecoder(resp.Body).Decode(&list); err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	return list
}

// TestKeysStateFilterOneReading: a backoff key that starts running after
// the filter passed it and before the page read it is not listed under
// state=backoff (it was, as running).
func TestKeysStateFilterOneReading(t *testing.T) {
	e := newHTEnv(t)
	hp := e.probe("alpha", false, NewExponentialLimiter[reconcile.Request](time.Second, time.Hour))
	hp.run("default/flip", reconcile.Result{}, errors.New("boom"))
	hp.run("default/stays", reconcile.Result{}, errors.New("boom"))

	entered, release, done := make(chan struct{}), make(chan struct{}), make(chan struct{})
	r := hp.p.Reconciler(reconcile.Func(func(context.Context, reconcile.Request) (reconcile.Result, error) {
		close(entered)
		<-release
		return reconcile.Result{}, nil
	}))
	var once sync.Once
	src := hookSource{registrySource{e.reg}, func(key string) {
		if key != "default/flip" {
			return
		}
		once.Do(func() {
			go func() {
				defer close(done)
				_, _ = r.Reconcile(context.Background(), htReq("default/flip"))
			}()
			<-entered // the key is running now
		})
	}}
	base := consistentServer(t, src)
	list := getKeys(t, base+"v1/keys?state=backoff&sort=key")
	close(release)
	select {
	case <-entered:
		<-done
	default:
		t.Fatalf("default/flip was not read for the page: %+v", list)
	}

	var got []string
	for _, k := range list.Items {
		got = append(got, k.Key+" "+string(k.State))
		if k.State != api.StateBackoff {
			t.Errorf("state=backoff lists %s as %s: the filter and the answer read the key at two moments", k.Key, k.State)
		}
	}
	if len(list.Items) != 1 || list.Items[0].Key != "default/stays" {
		t.Errorf("state=backoff lists %v, want only default/stays (default/flip started running)", got)
	}
	if list.Matched != len(list.Items) {
		t.Errorf("matched = %d beside %d items listed on a single page", list.Matched, len(list.Items))
	}
}

// TestKeysStateFilterUnderChurn: keys going round backoff → running →
// backoff while state=backoff is listed over and over; every key listed is
// in backoff in the answer. Run with -race.
func TestKeysStateFilterUnderChurn(t *testing.T) {
	e := newHTEnv(t)
	hp := e.probe("alpha", false, NewExponentialLimiter[reconcile.Request](time.Second, time.Hour))
	keys := []string{"default/k0", "default/k1", "default/k2", "default/k3"}
	for _, k := range keys {
		hp.run(k, reconcile.Result{}, errors.New("boom"))
	}
	base := consistentServer(t, registrySource{e.reg})

	r := hp.p.Reconciler(reconcile.Func(func(context.Context, reconcile.Request) (reconcile.Result, error) {
		return reconcile.Result{}, errors.New("boom")
	}))
	stop, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			req := htReq(keys[i%len(keys)])
			_, _ = r.Reconcile(context.Background(), req)
			hp.rl.When(req)
		}
	}()
	defer func() { close(stop); <-stopped }()

	for range 200 {
		for _, k := range getKeys(t, base+"v1/keys?state=backoff").Items {
			if k.State != api.StateBackoff {
				t.Fatalf("state=backoff lists %s as %s", k.Key, k.State)
			}
		}
	}
}
