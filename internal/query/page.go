package query

import (
	"slices"
	"strings"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// A page of v1/keys is chosen in one pass over the keys, by a Pager, on
// every source: each key is offered (Offer), matched, ranked and kept if it
// is among the first offset+limit so far (a bounded top-k, O(n log k) time,
// O(k) memory whatever the number of keys); Page then cuts the page and
// Continue gives the token of the next. A continue token is the position of
// a page's last row in the sort order, as the Kubernetes API's continue is:
// the next page holds the rows that sort after it, found with the same
// bounded selection as the first page, however deep. Rows move as keys
// change state between pages; a key can then be seen twice or not at all,
// but no page costs more than the first.

// Row is one candidate for a page: its place in the order and nothing else,
// so that keeping offset+limit of them stays small; the page's keys are read
// in full only once chosen. Ref is the source's own handle on the key (an
// index into its list, say), carried untouched.
type Row struct {
	Rank api.Rank
	Ctrl int // index of the controller in the Pager's names
	Key  string
	Ref  int
}

// Pager selects one page of a Keys query over the keys of the controllers
// names (rows name them by index).
type Pager struct {
	q     *Keys
	names []string
	top   topK
	// afterCtrl compares each controller with the token's, when continuing.
	afterCtrl []int
	after     *Row

	// Total counts every key offered; Matched those the filter passes; rest
	// those after the continue token (all matched without one).
	Total, Matched, rest int
}

// NewPager starts selecting q's page over the controllers names.
func NewPager(q *Keys, names []string) *Pager {
	p := &Pager{q: q, names: names}
	p.top = topK{names: names, k: q.Offset + q.Limit}
	if p.top.k > api.MaxWindow {
		p.top.k, p.top.last = api.MaxWindow, true
	}
	p.top.rows = make([]Row, 0, p.top.k)
	if q.After != nil {
		p.after = &Row{Rank: q.After.Rank, Ctrl: -1, Key: q.After.Key}
		p.afterCtrl = make([]int, len(names))
		for i, n := range names {
			p.afterCtrl[i] = strings.Compare(n, q.After.Controller)
		}
	}
	return p
}

// Offer counts one key of controller ctrl and keeps it if it passes the
// filter and ranks among the first; ref is handed back in its Row.
func (p *Pager) Offer(ctrl int, key, lastErr string, st api.State, in *api.RankInput, ref int) {
	p.Total++
	if !p.q.Matcher.Match(key, lastErr, st) {
		return
	}
	p.Matched++
	in.State = st
	r := Row{Rank: api.SortRank(p.q.Sort, *in), Ctrl: ctrl, Key: key, Ref: ref}
	if p.after != nil && !p.isAfter(&r) {
		return
	}
	p.rest++
	p.top.offer(r)
}

// isAfter reports whether r sorts after the token's row.
func (p *Pager) isAfter(r *Row) bool {
	if c := r.Rank.Compare(p.after.Rank); c != 0 {
		return c > 0
	}
	if c := p.afterCtrl[r.Ctrl]; c != 0 {
		return c > 0
	}
	return r.Key > p.after.Key
}

// Page returns the page's rows in order, or the filter's budget error, or
// an offset error when the page lies between the first and the last
// api.MaxWindow rows.
func (p *Pager) Page() ([]Row, error) {
	if err := p.q.Matcher.Err(); err != nil {
		return nil, err
	}
	rows := p.top.sorted()
	start := p.q.Offset
	if p.top.last {
		// rows are the last len(rows) of the p.rest rows.
		if start = p.q.Offset - (p.rest - len(rows)); start < 0 {
			return nil, Invalid("offset", "%d is more than %d keys from both ends of the %d listed: page further with the continue token of the previous page",
				p.q.Offset, api.MaxWindow, p.rest)
		}
	}
	page := rows[min(start, len(rows)):]
	// A copy: the window (up to 480 KB) is garbage before the page is encoded.
	return slices.Clone(page[:min(p.q.Limit, len(page))]), nil
}

// Continue is the token of the page after rows (what Page returned), or ""
// when rows end the list.
func (p *Pager) Continue(rows []Row) string {
	n := len(rows)
	if n == 0 || p.rest <= p.q.Offset+n {
		return ""
	}
	last := &rows[n-1]
	return (&Cursor{Sort: p.q.Sort, Rank: last.Rank, Controller: p.names[last.Ctrl], Key: last.Key, Scope: p.q.Scope}).Encode()
}

// compareRow orders rows as v1/keys does: rank, then controller, then key.
func compareRow(names []string, a, b *Row) int {
	if c := a.Rank.Compare(b.Rank); c != 0 {
		return c
	}
	if a.Ctrl != b.Ctrl {
		return strings.Compare(names[a.Ctrl], names[b.Ctrl])
	}
	return strings.Compare(a.Key, b.Key)
}

// topK keeps the k first rows in sort order out of any number offered. It
// is a max-heap: the root is the worst row kept, the one a better candidate
// replaces.
type topK struct {
	names []string
	k     int
	rows  []Row
	// last keeps the k last rows instead: for a page near the end.
	last bool
}

// cmp orders rows for the heap: the sort order, or its reverse with last.
func (t *topK) cmp(a, b *Row) int {
	if t.last {
		return compareRow(t.names, b, a)
	}
	return compareRow(t.names, a, b)
}

// worse reports whether row i sorts after row j: the worse row is nearer
// the root.
func (t *topK) worse(i, j int) bool { return t.cmp(&t.rows[j], &t.rows[i]) < 0 }

// offer keeps r if it is among the k first so far. The heap is by hand, not
// container/heap, whose Push would box every row.
func (t *topK) offer(r Row) {
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
func (t *topK) sorted() []Row {
	slices.SortFunc(t.rows, func(a, b Row) int { return compareRow(t.names, &a, &b) })
	return t.rows
}
