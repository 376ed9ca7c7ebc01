package instrument

import (
	"container/heap"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"slices"
	"strings"
)

// row is one candidate for a page of v1/keys.
type row struct {
	primary    int64
	controller string
	key        string
	view       api.Key
}

func (a *row) less(b *row) bool { return rowLess(a.primary, a.controller, a.key, b) }

// rowLess reports whether a row with these sort fields sorts before b. It
// takes the fields, not a row, so that a candidate needs no (large) row built.
func rowLess(primary int64, controller, key string, b *row) bool {
	if primary != b.primary {
		return primary < b.primary
	}
	if c := strings.Compare(controller, b.controller); c != 0 {
		return c < 0
	}
	return key < b.key
}

// topK keeps the k first rows in sort order out of any number offered, so a
// page costs O(n log k) and copies only the keys that make it. It is a max-heap:
// the root is the worst row kept, the one a better candidate replaces.
type topK struct {
	k       int
	rows    []row
	matched int
}

func newTopK(k int) *topK { return &topK{k: k} }

// Len, Less, Swap, Push and Pop implement heap.Interface.
func (t *topK) Len() int           { return len(t.rows) }
func (t *topK) Less(i, j int) bool { return t.rows[j].less(&t.rows[i]) }
func (t *topK) Swap(i, j int)      { t.rows[i], t.rows[j] = t.rows[j], t.rows[i] }
func (t *topK) Push(x any)         { t.rows = append(t.rows, x.(row)) }
func (t *topK) Pop() any {
	r := t.rows[len(t.rows)-1]
	t.rows = t.rows[:len(t.rows)-1]
	return r
}

// wants reports whether a row with these sort fields would be kept; only then
// is its view built.
func (t *topK) wants(primary int64, controller, key string) bool {
	if len(t.rows) < t.k {
		return true
	}
	return rowLess(primary, controller, key, &t.rows[0])
}

// offer adds r, which wants accepted.
func (t *topK) offer(r row) {
	if len(t.rows) < t.k {
		heap.Push(t, r)
		return
	}
	t.rows[0] = r
	heap.Fix(t, 0)
}

// page returns the kept rows in order, from offset.
func (t *topK) page(offset int) []api.Key {
	slices.SortFunc(t.rows, func(a, b row) int {
		if a.less(&b) {
			return -1
		}
		return 1
	})
	if offset >= len(t.rows) {
		return []api.Key{}
	}
	out := make([]api.Key, 0, len(t.rows)-offset)
	for _, r := range t.rows[offset:] {
		out = append(out, r.view)
	}
	return out
}

// sortKey is e's primary sort field for order; the smallest sorts first.
func sortKey[T comparable](e *entry[T], order string) int64 {
	waiting := e.stored == stBackoff || e.stored == stScheduled
	return api.SortRank(order, int(e.failures), waiting, e.nextRetry, e.firstFailureAt)
}

// collect offers every entry that matches q to top, and returns the number of
// tracked keys.
func (s *store[T]) collect(controller string, q *keyQuery, now int64, top *topK) int {
	s.maybeSweep(now)
	s.each(func(e *entry[T]) {
		st := e.state(now)
		if !q.filter.match(e.key, e.lastErr, st) {
			return
		}
		top.matched++
		p := sortKey(e, q.sort)
		if top.wants(p, controller, e.key) {
			top.offer(row{primary: p, controller: controller, key: e.key, view: e.view(controller, now, false)})
		}
	})
	return s.len()
}
