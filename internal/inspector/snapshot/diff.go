package snapshot

import (
	"cmp"
	"slices"
	"strings"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
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
	// CountReset: failing in both, with the failure count reset in between
	// (a forget, or the controller giving up: Key.LastReset is newer after),
	// or lower after, which only a reset does. Grew is then not said: the
	// count after is a new streak's.
	CountReset = "count-reset"
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
// after, whose failures grew, whose last error changed, and whose count
// was reset while they kept failing: started first, then those still
// failing, then stopped, each in controller and key order.
//
// A key one snapshot tracks and the other does not list is left out when
// the other has a replica it could not read (Unread): the key may be that
// replica's, so it is unknown there, neither recovered nor new. Unknown
// counts them.
func Diff(before, after *File) []Change {
	changes, _ := diff(before, after)
	return changes
}

// Unknown is how many keys Diff leaves out: tracked in one snapshot,
// absent from the other, which has a replica it could not read.
func Unknown(before, after *File) int {
	_, unknown := diff(before, after)
	return unknown
}

// Unread is the file's replicas that could not be read (Endpoint.Error).
func (f *File) Unread() []Endpoint {
	var out []Endpoint
	for _, e := range f.Endpoints {
		if e.Error != "" {
			out = append(out, e)
		}
	}
	return out
}

func diff(before, after *File) ([]Change, int) {
	b, a := before.Keys(), after.Keys()
	bUnread, aUnread := len(before.Unread()) > 0, len(after.Unread()) > 0
	unknown := 0
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
		if (pb == nil && bUnread) || (pa == nil && aUnread) {
			unknown++
			continue
		}
		if c := changes(pb, pa); len(c) > 0 {
			out = append(out, Change{Controller: id.controller, Key: id.key, Changes: c, Before: pb, After: pa})
		}
	}
	rank := func(c Change) int {
		return slices.Index([]string{Started, Grew, ErrorChanged, CountReset, Stopped}, c.Changes[0])
	}
	slices.SortFunc(out, func(x, y Change) int {
		return cmp.Or(cmp.Compare(rank(x), rank(y)), strings.Compare(x.Controller, y.Controller), strings.Compare(x.Key, y.Key))
	})
	return out, unknown
}

func changes(before, after *api.Key) []string {
	fb, fa := explain.Failing(before), explain.Failing(after)
	switch {
	case !fb && fa:
		return []string{Started}
	case fb && !fa:
		return []string{Stopped}
	case !fb:
		return nil
	}
	var out []string
	switch {
	case resetBetween(before, after):
		out = append(out, CountReset)
	case after.Failures > before.Failures:
		out = append(out, Grew)
	}
	if lastError(before) != lastError(after) {
		out = append(out, ErrorChanged)
	}
	return out
}

// resetBetween reports whether after's failure count was reset since
// before: a LastReset newer than before's, or a count that went down (an
// endpoint older than LastReset says nothing else).
func resetBetween(before, after *api.Key) bool {
	if r := after.LastReset; r != nil && (before.LastReset == nil || r.At.After(before.LastReset.At)) {
		return true
	}
	return after.Failures < before.Failures
}

func lastError(k *api.Key) string {
	if k.LastError == nil {
		return ""
	}
	return k.LastError.Message
}
