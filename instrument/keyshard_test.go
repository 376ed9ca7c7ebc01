package instrument

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// TestItemShardIsKeyShard: the shard read from an item in place is the one
// its built key picks, for every split of the last 8 bytes between
// namespace, slash and name, so that a lookup by the endpoint's key and one
// by the queue's item find the same entry.
func TestItemShardIsKeyShard(t *testing.T) {
	var names []string
	for n := range 12 {
		names = append(names, strings.Repeat("x", n)[:n])
	}
	names = append(names, "w-00001", "widget-41", strings.Repeat("y", 253))
	nss := []string{"", "a", "ns", "load", "default-ns", strings.Repeat("n", 63)}
	req := newStore[reconcile.Request](newKeyer[reconcile.Request](nil), nil, 10, 0)
	str := newStore[string](newKeyer[string](nil), nil, 10, 0)
	for _, ns := range nss {
		for _, name := range names {
			for i := range name {
				name := name[:i] + string(rune('a'+i%26)) + name[i+1:]
				r := reconcile.Request{NamespacedName: types.NamespacedName{Namespace: ns, Name: name}}
				key := req.keyer.append(nil, r)
				if got, _, _, ok := req.itemShard(r); !ok || got != req.shardFor(key) {
					t.Fatalf("request %q: item shard %p (ok %v), key shard %p", key, got, ok, req.shardFor(key))
				}
				if got, _, _, ok := str.itemShard(string(key)); !ok || got != str.shardFor(key) {
					t.Fatalf("string %q: item shard %p (ok %v), key shard %p", key, got, ok, str.shardFor(key))
				}
			}
		}
	}
}

// TestShardLastEntry: a shard's last entry is found by item and by key,
// and a key with the same last bytes and length is not taken for it.
func TestShardLastEntry(t *testing.T) {
	p := New("last", Options{Registry: NewRegistry(), DisableMetrics: true})
	s := p.store
	a := reconcile.Request{NamespacedName: types.NamespacedName{Namespace: "ns-1", Name: "widget-00001"}}
	b := reconcile.Request{NamespacedName: types.NamespacedName{Namespace: "ns-2", Name: "widget-00001"}}
	s.withEntry(a, 1, func(e *entry[reconcile.Request]) { e.failures = 1 })
	s.withEntry(b, 1, func(e *entry[reconcile.Request]) { e.failures = 2 })
	for _, tc := range []struct {
		r    reconcile.Request
		want int32
	}{{a, 1}, {b, 2}, {a, 1}, {a, 1}, {b, 2}} {
		var got int32
		if !s.withItem(tc.r, func(e *entry[reconcile.Request]) { got = e.failures }) || got != tc.want {
			t.Errorf("withItem(%v): failures %d, want %d", tc.r, got, tc.want)
		}
		got = 0
		if !s.withKey(tc.r.String(), func(e *entry[reconcile.Request]) { got = e.failures }) || got != tc.want {
			t.Errorf("withKey(%v): failures %d, want %d", tc.r, got, tc.want)
		}
	}
}
