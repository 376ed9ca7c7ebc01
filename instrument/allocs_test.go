package instrument

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// TestWhenAllocatesNothing: the limiter's When on a known key allocates
// nothing, whether its key fits the short lookup buffer or needs the long one
// (a 63-character namespace and a 253-character name).
func TestWhenAllocatesNothing(t *testing.T) {
	long := reconcile.Request{NamespacedName: types.NamespacedName{
		Namespace: strings.Repeat("n", 63), Name: strings.Repeat("x", 253),
	}}
	short := reconcile.Request{NamespacedName: types.NamespacedName{Namespace: "default", Name: "w"}}
	for _, r := range []reconcile.Request{short, long} {
		for _, pq := range []bool{true, false} {
			rl := New("allocs", Options{Registry: NewRegistry(), UsePriorityQueue: ptr.To(pq), DisableMetrics: true}).RateLimiter(nil)
			rl.When(r)
			if n := testing.AllocsPerRun(100, func() { rl.When(r); rl.Forget(r) }); n != 0 {
				t.Errorf("priority queue %v, a %d-byte key: When+Forget allocates %v times, want 0", pq, len(r.String()), n)
			}
			if got := rl.NumRequeues(r); got != 0 {
				t.Errorf("priority queue %v, a %d-byte key: NumRequeues after Forget = %d, want 0", pq, len(r.String()), got)
			}
		}
	}
}
