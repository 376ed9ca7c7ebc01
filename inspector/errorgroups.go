package inspector

import (
	"cmp"
	"slices"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// ErrorGroupBuilder groups keys' last errors as v1/errors does, for sources
// that answer the API in process (a snapshot, a log): one group per
// controller and fingerprint, exact counts, a few example keys in key
// order, largest group first.
type ErrorGroupBuilder struct {
	groups []api.ErrorGroup
	at     map[[2]string]int
}

// Add counts key k, whose last error has fingerprint fp, in its group.
func (b *ErrorGroupBuilder) Add(k *api.Key, fp string) {
	if b.at == nil {
		b.at = map[[2]string]int{}
	}
	id := [2]string{k.Controller, fp}
	first := cmp.Or(k.FirstFailureAt, k.LastError.At)
	i, ok := b.at[id]
	if !ok {
		i = len(b.groups)
		b.at[id] = i
		b.groups = append(b.groups, api.ErrorGroup{Controller: k.Controller, Fingerprint: fp,
			Message: k.LastError.Message, Class: k.LastError.Class, FirstSeen: first})
	}
	g := &b.groups[i]
	g.Count++
	if first.Before(g.FirstSeen) {
		g.FirstSeen = first
	}
	if k.LastError.At.After(g.LastSeen) {
		g.LastSeen = k.LastError.At
	}
	g.Examples = append(g.Examples, k.Key)
}

// Groups returns the groups, largest first, each with its first
// maxExamples keys in key order.
func (b *ErrorGroupBuilder) Groups() []api.ErrorGroup {
	out := slices.Clone(b.groups)
	for i := range out {
		g := &out[i]
		g.Examples = slices.Sorted(slices.Values(g.Examples))
		g.Examples = g.Examples[:min(len(g.Examples), maxExamples)]
	}
	slices.SortFunc(out, compareGroups)
	if out == nil {
		out = []api.ErrorGroup{}
	}
	return out
}

// compareGroups orders error groups as v1/errors does: largest first, then
// by controller and fingerprint, so equal counts keep one order.
func compareGroups(a, b api.ErrorGroup) int {
	if c := cmp.Compare(b.Count, a.Count); c != 0 {
		return c
	}
	return cmp.Compare(a.Controller+"\x00"+a.Fingerprint, b.Controller+"\x00"+b.Fingerprint)
}
