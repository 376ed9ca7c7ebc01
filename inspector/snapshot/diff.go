package snapshot

import (
	"cmp"
	"slices"
	"strings"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// What changed for a key between two snapshots (Change.Changes).
const (
	// Started: not failing before (or not tracked), failing after.
	Started = "started-failing"
	// Stopped: failing before, not after (or no longer tracked).
	Stopped = "stopped-failing"
	// Grew: failing in both, with more consecutive failures after.
	Grew = "failures-grew"
	// ErrorChanged: failing in both, with another last error after.
	ErrorChanged = "error-changed"
)

// Change is one key that changed between two snapshots. Before or After is
// nil where the snapshot does not track the key.
type Change struct {
	Controller string   `json:"controller"`
	Key        string   `json:"key"`
	Changes    []string `json:"changes"`
	Before     *api.Key `json:"before,omitempty"`
	After      *api.Key `json:"after,omitempty"`
}

// Diff lists the keys that started or stopped failing between before and
// after, whose failures grew, and whose last error changed: started first,
// then those still failing, then stopped, each in controller and key order.
func Diff(before, after *File) []Change {
	b, a := before.Keys(), after.Keys()
	ids := make([]key, 0, len(a))
	for id := range a {
		ids = append(ids, id)
	}
	for id := range b {
		if _, ok := a[id]; !ok {
			ids = append(ids, id)
		}
	}
	var out []Change
	for _, id := range ids {
		var pb, pa *api.Key
		if k, ok := b[id]; ok {
			pb = &k
		}
		if k, ok := a[id]; ok {
			pa = &k
		}
		if c := changes(pb, pa); len(c) > 0 {
			out = append(out, Change{Controller: id.controller, Key: id.key, Changes: c, Before: pb, After: pa})
		}
	}
	rank := func(c Change) int { return slices.Index([]string{Started, Grew, ErrorChanged, Stopped}, c.Changes[0]) }
	slices.SortFunc(out, func(x, y Change) int {
		return cmp.Or(cmp.Compare(rank(x), rank(y)), strings.Compare(x.Controller, y.Controller), strings.Compare(x.Key, y.Key))
	})
	return out
}

func changes(before, after *api.Key) []string {
	fb, fa := inspector.Failing(before), inspector.Failing(after)
	switch {
	case !fb && fa:
		return []string{Started}
	case fb && !fa:
		return []string{Stopped}
	case !fb:
		return nil
	}
	var out []string
	if after.Failures > before.Failures {
		out = append(out, Grew)
	}
	if lastError(before) != lastError(after) {
		out = append(out, ErrorChanged)
	}
	return out
}

func lastError(k *api.Key) string {
	if k.LastError == nil {
		return ""
	}
	return k.LastError.Message
}
