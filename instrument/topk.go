package instrument

import (
	"context"
	"slices"
	"strings"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// row is one candidate for a page of v1/keys: its place in the order and
// nothing else (48 bytes), so that keeping offset+limit of them stays small;
// the page's keys are read in full only once chosen.
type row struct {
	rank api.Rank
	ctrl int // index of the controller in the request's sources
	key  string
}

// sources are the controllers of one request; rows name them by index.
type sources []controllerSource

func (s sources) name(i int) string { return s[i].Name() }

// compareRow orders rows as v1/keys does: rank, then controller, then key.
func (src sources) compareRow(a, b *row) int {
	if c := a.rank.Compare(b.rank); c != 0 {
		return c
	}
	if a.ctrl != b.ctrl {
		return strings.Compare(src.name(a.ctrl), src.name(b.ctrl))
	}
	return strings.Compare(a.key, b.key)
}

// topK keeps the k first rows in sort order out of any number offered, so a
// page costs O(n log k) time and O(k) memory whatever the number of keys. It
// is a max-heap: the root is the worst row kept, the one a better candidate
// replaces.
type topK struct {
	src  sources
	k    int
	rows []row
	// last keeps the k last rows instead: for a page near the end.
	last bool
}

// cmp orders rows for the heap: the sort order, or its reverse with last.
func (t *topK) cmp(a, b *row) int {
	if t.last {
		return t.src.compareRow(b, a)
	}
	return t.src.compareRow(a, b)
}

// worse reports whether row i sorts after row j: the worse row is nearer
// the root.
func (t *topK) worse(i, j int) bool { return t.cmp(&t.rows[j], &t.rows[i]) < 0 }

// offer keeps r if it is among the k first so far. The heap is by hand, not
// container/heap, whose Push would box every row.
func (t *topK) offer(r row) {
	if len(t.rows) < t.k {
		t.rows = append(t.rows, r)
		for i := len(t.rows) - 1; i > 0; {
			parent := (i - 1) / 2
			if !t.worse(i, parent) {
				break
			}
			t.rows[parent], t.rows[i] = t.rows[i], t.rows[parent]
			i = parent
		}
		return
	}
	if t.cmp(&r, &t.rows[0]) >= 0 {
		return
	}
	t.rows[0] = r
	for i := 0; ; {
		worst, l, rt := i, 2*i+1, 2*i+2
		if l < len(t.rows) && t.worse(l, worst) {
			worst = l
		}
		if rt < len(t.rows) && t.worse(rt, worst) {
			worst = rt
		}
		if worst == i {
			return
		}
		t.rows[i], t.rows[worst] = t.rows[worst], t.rows[i]
		i = worst
	}
}

// sorted returns the kept rows in order.
func (t *topK) sorted() []row {
	slices.SortFunc(t.rows, func(a, b row) int { return t.src.compareRow(&a, &b) })
	return t.rows
}

// selection is the outcome of one pass over the sources for v1/keys.
type selection struct {
	total, matched int
	// rest counts the matched rows after the continue token (all of them
	// without one): whether a next page exists.
	rest int
	rows []row // the page, in order
}

// selectPage finds q's page over src: one pass over snapshots, matching and
// ranking outside every lock, keeping at most api.MaxWindow rows: the first
// offset+limit, or for a deeper offset the last MaxWindow (a page near the
// end, where a "last page" key leads), which must then hold the page.
func selectPage(ctx context.Context, src sources, q *keyQuery, now int64) (*selection, error) {
	sel := &selection{}
	top := &topK{src: src, k: q.offset + q.limit}
	if top.k > api.MaxWindow {
		top.k, top.last = api.MaxWindow, true
	}
	top.rows = make([]row, 0, top.k)
	var after *row
	if q.after != nil {
		after = &row{rank: q.after.rank, ctrl: -1, key: q.after.key}
	}
	var buf []keySnap
	for i, c := range src {
		afterCtrl := 0 // how this controller compares with the token's
		if after != nil {
			afterCtrl = strings.Compare(c.Name(), q.after.controller)
		}
		var total int
		var err error
		buf, total, err = c.scan(ctx, now, buf, func(snaps []keySnap) error {
			for j := range snaps {
				k := &snaps[j]
				if j%256 == 255 {
					if err := ctx.Err(); err != nil {
						return err
					}
				}
				if !q.filter.match(k.key, k.lastErr, k.state) {
					continue
				}
				sel.matched++
				r := row{rank: api.SortRank(q.sort, k.rankInput()), ctrl: i, key: k.key}
				if after != nil && !isAfter(&r, afterCtrl, after) {
					continue
				}
				sel.rest++
				top.offer(r)
			}
			if q.filter.overBudget {
				return q.filter.errOverBudget()
			}
			return nil
		})
		sel.total += total
		if err != nil {
			return nil, err
		}
	}
	rows := top.sorted()
	start := q.offset
	if top.last {
		// rows are the last len(rows) of the sel.rest rows.
		if start = q.offset - (sel.rest - len(rows)); start < 0 {
			return nil, badParam("offset", "%d is more than %d keys from both ends of the %d listed: page further with the continue token of the previous page",
				q.offset, api.MaxWindow, sel.rest)
		}
	}
	page := rows[min(start, len(rows)):]
	// A copy: the window (up to 480 KB) is garbage before the page is encoded.
	sel.rows = slices.Clone(page[:min(q.limit, len(page))])
	return sel, nil
}

// isAfter reports whether r sorts after the token's row; afterCtrl compares
// r's controller with the token's.
func isAfter(r *row, afterCtrl int, after *row) bool {
	if c := r.rank.Compare(after.rank); c != 0 {
		return c > 0
	}
	if afterCtrl != 0 {
		return afterCtrl > 0
	}
	return r.key > after.key
}
