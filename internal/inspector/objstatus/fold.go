package objstatus

import (
	"regexp"
	"slices"
	"strings"
)

// combined is the prefix client-go's EventCorrelator gives an aggregate.
const combined = "(combined from similar events): "

// generated matches the suffix the API server appends to a generateName
// (apimachinery's names.SimpleNameGenerator: five of
// "bcdfghjklmnpqrstvwxz2456789"): a ReplicaSet's FailedCreate events differ
// only in it.
var generated = regexp.MustCompile(`\b([a-z0-9]([-a-z0-9.]*[a-z0-9])?)-[bcdfghjklmnpqrstvwxz2456789]{5}\b`)

// FoldEvents folds events of the same type, reason and message up to
// generated names into one row, as `kubectl events` folds a series: the
// counts summed, the first and last times kept, the newest message shown.
// The rows are newest first.
func FoldEvents(events []Event) []Event {
	var out []Event
	index := map[string]int{}
	for _, e := range events {
		if e.Count == 0 {
			e.Count = 1
		}
		if e.FirstSeen.IsZero() || e.FirstSeen.After(e.LastSeen) {
			e.FirstSeen = e.LastSeen
		}
		// client-go's correlator rewrites the tenth similar event of ten
		// minutes as "(combined from similar events): …": the same series.
		msg := strings.TrimPrefix(e.Message, combined)
		k := e.Type + "\x00" + e.Reason + "\x00" + generated.ReplaceAllString(msg, "$1-*")
		i, ok := index[k]
		if !ok {
			index[k] = len(out)
			out = append(out, e)
			continue
		}
		f := &out[i]
		f.Count += e.Count
		if e.LastSeen.After(f.LastSeen) {
			f.LastSeen, f.Message = e.LastSeen, e.Message
		}
		if e.FirstSeen.Before(f.FirstSeen) {
			f.FirstSeen = e.FirstSeen
		}
	}
	slices.SortStableFunc(out, func(a, b Event) int { return b.LastSeen.Compare(a.LastSeen) })
	return out
}
