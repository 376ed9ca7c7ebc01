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
				if got, ok := req.itemShard(r); !ok || got != req.shardFor(key) {
					t.Fatalf("request %q: item shard %p (ok %v), key shard %p", key, got, ok, req.shardFor(key))
				}
				if got, ok := str.itemShard(string(key)); !ok || got != str.shardFor(key) {
					t.Fatalf("string %q: item shard %p (ok %v), key shard %p", key, got, ok, str.shardFor(key))
				}
			}
		}
	}
}
