package instrument

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

const (
	// maxExamples is how many keys a group names.
	maxExamples = 3
	// maxErrorGroups bounds the groups of one answer; the smaller groups
	// beyond it merge, per controller, into one whose fingerprint is a lone
	// fold, so that the counts still add up.
	maxErrorGroups = 1000
)

// groupAcc accumulates one group during the pass.
type groupAcc struct {
	ctrl        int
	fingerprint string
	class       string
	count       int
	first, last int64
	examples    []keySnap // the smallest keys, in key order
}

// errorGroups groups the last errors of the keys m selects by controller
// and fingerprint: one pass over snapshots, outside every lock,
// fingerprinting each distinct message once.
func errorGroups(ctx context.Context, src sources, m *matcher, now int64) (*api.ErrorGroupList, error) {
	out := &api.ErrorGroupList{}
	idx := map[groupID]int{}
	var groups []*groupAcc
	var buf []keySnap
	for i, c := range src {
		// The group of each message, by identity: messages are interned, so
		// keys failing alike share one string, fingerprinted once.
		byText := map[textID]int{}
		var total int
		var err error
		buf, total, err = c.scan(ctx, now, buf, func(snaps []keySnap) error {
			for j := range snaps {
				k := &snaps[j]
				if k.lastErr == "" || !m.match(k.key, k.lastErr, k.state) {
					continue
				}
				out.Matched++
				id := textIDOf(k.lastErr)
				gi, ok := byText[id]
				if !ok {
					fp := fingerprint(k.lastErr)
					if gi, ok = idx[groupID{i, fp}]; !ok {
						gi = len(groups)
						idx[groupID{i, fp}] = gi
						groups = append(groups, &groupAcc{ctrl: i, fingerprint: fp, class: k.class, first: seen(k), last: k.lastErrAt})
					}
					if len(byText) < maxMemo {
						byText[id] = gi
					}
				}
				groups[gi].add(k)
			}
			if m.overBudget {
				return m.errOverBudget()
			}
			return ctx.Err()
		})
		out.Total += total
		if err != nil {
			return nil, err
		}
	}
	slices.SortFunc(groups, func(a, b *groupAcc) int {
		return cmp.Or(cmp.Compare(b.count, a.count), cmp.Compare(src.name(a.ctrl), src.name(b.ctrl)),
			strings.Compare(a.fingerprint, b.fingerprint))
	})
	groups = mergeSmallGroups(groups)
	out.Groups = make([]api.ErrorGroup, 0, len(groups))
	for _, g := range groups {
		eg := api.ErrorGroup{
			Controller:  src.name(g.ctrl),
			Fingerprint: g.fingerprint,
			Message:     g.examples[0].lastErr,
			Class:       g.class,
			Count:       g.count,
			FirstSeen:   unixTime(g.first),
			LastSeen:    unixTime(g.last),
			Examples:    make([]string, 0, len(g.examples)),
		}
		for _, e := range g.examples {
			eg.Examples = append(eg.Examples, e.key)
		}
		out.Groups = append(out.Groups, eg)
	}
	return out, nil
}

type groupID struct {
	ctrl int
	fp   string
}

// seen is when k's failure streak began, or its error's time without one.
func seen(k *keySnap) int64 {
	if k.firstFailureAt != 0 {
		return k.firstFailureAt
	}
	return k.lastErrAt
}

func (g *groupAcc) add(k *keySnap) {
	g.count++
	g.first = min(g.first, seen(k))
	g.last = max(g.last, k.lastErrAt)
	if g.class != k.class {
		g.class = "" // a group of mixed classes claims none
	}
	if len(g.examples) == maxExamples && k.key >= g.examples[maxExamples-1].key {
		return
	}
	i, _ := slices.BinarySearchFunc(g.examples, k.key, func(e keySnap, key string) int { return strings.Compare(e.key, key) })
	g.examples = slices.Insert(g.examples, i, *k)
	g.examples = g.examples[:min(len(g.examples), maxExamples)]
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
			r = &groupAcc{ctrl: g.ctrl, fingerprint: fold, class: g.class, first: g.first, last: g.last}
			rest[g.ctrl] = r
			order = append(order, g.ctrl)
		}
		for _, e := range g.examples {
			r.add(&e)
		}
		r.count += g.count - len(g.examples)
		r.first, r.last = min(r.first, g.first), max(r.last, g.last)
	}
	for _, c := range order {
		kept = append(kept, rest[c])
	}
	return kept
}
