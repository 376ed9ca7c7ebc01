package query

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

const (
	// MaxExamples is how many keys an error group names, on every source
	// and when a client merges replicas' groups: the smallest keys.
	MaxExamples = 3
	// maxErrorGroups bounds the groups of one answer; the smaller groups
	// beyond it merge, per controller, into one whose fingerprint is a lone
	// fold, so that the counts still add up.
	maxErrorGroups = 1000
)

// Grouper groups keys' last errors as v1/errors does, on every source: one
// group per controller and Fingerprint, exact counts, the MaxExamples
// smallest keys, largest group first. A group's class is its keys' class
// when they all agree, none when they are mixed (MergeClass). Messages are
// fingerprinted once per distinct string: a server that interns its
// messages has 10,000 keys failing alike share one, fingerprinted once.
type Grouper struct {
	names  []string // the controllers, named by index in Add
	idx    map[groupID]int
	byText map[textKey]int
	groups []*groupAcc
}

// NewGrouper groups the keys of the controllers names; Add names a
// controller by its index in names.
func NewGrouper(names []string) *Grouper {
	return &Grouper{names: names, idx: map[groupID]int{}, byText: map[textKey]int{}}
}

type groupID struct {
	ctrl int
	fp   string
}

type textKey struct {
	ctrl int
	id   textID
}

// groupAcc accumulates one group.
type groupAcc struct {
	ctrl        int
	fingerprint string
	class       string
	count       int
	first, last int64
	// examples are the smallest keys, in order, with their messages: the
	// group shows the first one's, whatever order the keys came in.
	examples []example
}

type example struct{ key, message string }

// ErrorKey is one key's last error, as Add counts it. First is when its
// failure streak began (its error's time without one); Last its error's
// time; both Unix nanoseconds, 0 for none.
type ErrorKey struct {
	Key, Message, Class string
	First, Last         int64
}

// Add counts k, of controller ctrl, in its group.
func (g *Grouper) Add(ctrl int, k *ErrorKey) {
	// A message naming its own object is its own text: it is folded, and
	// not memoised, as another key's same text names another object.
	masked := maskName(k.Message, k.Key)
	tk := textKey{ctrl, textIDOf(k.Message)}
	gi, ok := g.byText[tk]
	if masked != k.Message {
		ok = false
	}
	if !ok {
		fp := Fingerprint(masked)
		if gi, ok = g.idx[groupID{ctrl, fp}]; !ok {
			gi = len(g.groups)
			g.idx[groupID{ctrl, fp}] = gi
			g.groups = append(g.groups, &groupAcc{ctrl: ctrl, fingerprint: fp, class: k.Class, first: k.First, last: k.Last})
		}
		if len(g.byText) < maxMemo && masked == k.Message {
			g.byText[tk] = gi
		}
	}
	g.groups[gi].add(example{k.Key, k.Message}, k.Class, k.First, k.Last)
}

// MergeClass is the one rule for a group's class: the class its keys agree
// on, or none when they are mixed (a group of mixed classes claims none).
func MergeClass(a, b string) string {
	if a != b {
		return ""
	}
	return a
}

func (a *groupAcc) add(e example, class string, first, last int64) {
	a.count++
	a.first = minTime(a.first, first)
	a.last = max(a.last, last)
	a.class = MergeClass(a.class, class)
	if len(a.examples) == MaxExamples && e.key >= a.examples[MaxExamples-1].key {
		return
	}
	i, _ := slices.BinarySearchFunc(a.examples, e.key, func(x example, key string) int { return strings.Compare(x.key, key) })
	a.examples = slices.Insert(a.examples, i, e)
	a.examples = a.examples[:min(len(a.examples), MaxExamples)]
}

// minTime is the earlier of two times, 0 being none.
func minTime(a, b int64) int64 {
	if a == 0 || (b != 0 && b < a) {
		return b
	}
	return a
}

// Groups returns the groups, largest first, then by controller and
// fingerprint.
func (g *Grouper) Groups() []api.ErrorGroup {
	groups := slices.Clone(g.groups)
	slices.SortFunc(groups, func(a, b *groupAcc) int {
		return cmp.Or(cmp.Compare(b.count, a.count), cmp.Compare(g.names[a.ctrl], g.names[b.ctrl]),
			strings.Compare(a.fingerprint, b.fingerprint))
	})
	groups = mergeSmallGroups(groups)
	out := make([]api.ErrorGroup, 0, len(groups))
	for _, a := range groups {
		keys := make([]string, len(a.examples))
		for i, e := range a.examples {
			keys[i] = e.key
		}
		out = append(out, api.ErrorGroup{
			Controller:  g.names[a.ctrl],
			Fingerprint: a.fingerprint,
			Message:     a.examples[0].message,
			Class:       a.class,
			Count:       a.count,
			FirstSeen:   unixTime(a.first),
			LastSeen:    unixTime(a.last),
			Examples:    keys,
		})
	}
	return out
}

// mergeSmallGroups keeps the maxErrorGroups largest groups (sorted) and
// merges the rest per controller.
func mergeSmallGroups(groups []*groupAcc) []*groupAcc {
	if len(groups) <= maxErrorGroups {
		return groups
	}
	kept := groups[:maxErrorGroups-1]
	rest := map[int]*groupAcc{}
	var order []int
	for _, g := range groups[maxErrorGroups-1:] {
		r := rest[g.ctrl]
		if r == nil {
			r = &groupAcc{ctrl: g.ctrl, fingerprint: api.FingerprintFold, class: g.class, first: g.first, last: g.last}
			rest[g.ctrl] = r
			order = append(order, g.ctrl)
		}
		for _, e := range g.examples {
			r.add(e, g.class, g.first, g.last)
		}
		r.count += g.count - len(g.examples)
	}
	for _, c := range order {
		kept = append(kept, rest[c])
	}
	return kept
}

// CompareGroups orders error groups as v1/errors does: largest first, then
// by controller and fingerprint, so equal counts keep one order. A client
// merging replicas' groups sorts with it.
func CompareGroups(a, b api.ErrorGroup) int {
	return cmp.Or(cmp.Compare(b.Count, a.Count), strings.Compare(a.Controller, b.Controller),
		strings.Compare(a.Fingerprint, b.Fingerprint))
}

// UnixNano is t in Unix nanoseconds, 0 for the zero time.
func UnixNano(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

func unixTime(ns int64) time.Time {
	if ns == 0 {
		return time.Time{}
	}
	return time.Unix(0, ns).UTC()
}
