package instrument

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/query"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// htAttentionEnv records one key per row of the attention order, a minute
// apart, on the fake clock; the backoffs last an hour, so none falls due.
func htAttentionEnv(t *testing.T) (*htEnv, *htProbe, []string) {
	e := newHTEnv(t)
	a := e.probe("alpha", true, NewExponentialLimiter[reconcile.Request](time.Hour, time.Hour))
	fail := fmt.Errorf("%s", htErrRefused)
	step := func() { e.clk.Step(time.Minute) }
	a.run("default/old-backoff", reconcile.Result{}, fail)
	step()
	a.run("default/failed-after-streak", reconcile.Result{}, fail)
	a.run("default/failed-after-streak", reconcile.Result{}, reconcile.TerminalError(fail))
	step()
	a.run("default/new-backoff", reconcile.Result{}, fail)
	a.run("default/failed-at-once", reconcile.Result{}, reconcile.TerminalError(fail))
	a.p.store.added(htReq("default/queued-old"))
	step()
	a.p.store.added(htReq("default/queued-new"))
	a.run("default/idle", reconcile.Result{}, nil)
	a.run("default/scheduled", reconcile.Result{RequeueAfter: time.Hour}, nil)
	a.p.store.started(htReq("default/running"), e.clk.Now().UnixNano())
	step()
	return e, a, []string{
		"default/old-backoff", "default/failed-after-streak", "default/new-backoff", "default/failed-at-once",
		"default/queued-old", "default/queued-new",
		"default/idle", "default/running", "default/scheduled",
	}
}

// TestStoreAttentionOrder: the store's entries, ranked on their snapshots,
// come out in the attention order.
func TestStoreAttentionOrder(t *testing.T) {
	e, a, want := htAttentionEnv(t)
	for _, limit := range []int{len(want), 3} { // whole, and a heap that must evict
		m, _ := query.NewMatcher(api.Filter{}, api.States)
		q := &query.Keys{Matcher: m, Sort: api.SortAttention, Limit: limit}
		p := query.NewPager(q, []string{a.p.Name()})
		view := &registryView{src: []controllerSource{a.p}, now: e.clk.Now().UnixNano()}
		err := view.Scan(context.Background(), func(ctrl int, items []query.Item) error {
			for _, it := range items {
				in := api.RankInput{Failures: it.Failures, NextRetry: it.NextRetry, FirstFailure: it.FirstFailure, QueuedAt: it.QueuedAt}
				p.Offer(ctrl, it.Key, it.LastError, it.State, &in, 0)
			}
			return nil
		})
		rows, perr := p.Page()
		if err != nil || perr != nil {
			t.Fatal(err, perr)
		}
		got := make([]string, len(rows))
		for i, r := range rows {
			got[i] = r.Key
		}
		if !slices.Equal(got, want[:limit]) {
			t.Errorf("limit %d: attention order\n got %v\nwant %v", limit, got, want[:limit])
		}
	}
}

// TestHandlerKeysAttention: v1/keys?sort=attention serves that order, and a
// client sorting the same keys with api.CompareKeys agrees.
func TestHandlerKeysAttention(t *testing.T) {
	e, _, want := htAttentionEnv(t)
	var list api.KeyList
	e.getInto("v1/keys?sort=attention", &list)
	got := make([]string, len(list.Items))
	for i, k := range list.Items {
		got[i] = k.Key
	}
	if !slices.Equal(got, want) {
		t.Fatalf("v1/keys?sort=attention\n got %v\nwant %v", got, want)
	}
	shuffled := slices.Clone(list.Items)
	rand.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	slices.SortFunc(shuffled, func(a, b api.Key) int { return api.CompareKeys(&a, &b, api.SortAttention) })
	for i := range shuffled {
		if shuffled[i].Key != want[i] {
			t.Errorf("client order differs at %d: %s, want %s", i, shuffled[i].Key, want[i])
		}
	}
	var def api.KeyList
	e.getInto("v1/keys", &def)
	if def.Items[0].Key == want[0] && def.Items[1].Key == want[1] {
		t.Errorf("the default order is attention's; want next (clients choose)")
	}
}
