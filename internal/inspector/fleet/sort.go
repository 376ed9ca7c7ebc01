package fleet

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/kubectl-backoff/kubectl-backoff/internal/query"
)

// The orders of rows.
const (
	// SortWorst: the oldest unresolved failure first, then the most keys
	// failing, at the cap, the deepest streak. The default.
	SortWorst = "worst"
	// SortFailing: the most keys backing off or failed first.
	SortFailing = "failing"
	// SortFailures: the deepest failure streak first.
	SortFailures = "failures"
	// SortCap: the most keys at the limiter's cap first.
	SortCap = "cap"
	// SortForgets: the most forgets in the last day first.
	SortForgets = "forgets"
	// SortName: by cluster, namespace, controller.
	SortName = "name"
)

// Sorts are the orders Sort knows, the default first.
var Sorts = []string{SortWorst, SortFailing, SortFailures, SortCap, SortForgets, SortName}

// CheckSort says why by is not an order Sort knows.
func CheckSort(by string) error {
	if slices.Contains(Sorts, by) {
		return nil
	}
	return fmt.Errorf("unknown order %q: use one of %s", by, strings.Join(Sorts, ", "))
}

// Sort orders rows by by (an unknown order sorts worst first).
func Sort(rows []Row, by string) {
	atCap := func(r *Row) int {
		if r.KeysAtCap == nil {
			return 0
		}
		return *r.KeysAtCap
	}
	worst := []func(a, b *Row) int{
		func(a, b *Row) int { return cmp.Compare(b.OldestFailureSeconds, a.OldestFailureSeconds) },
		func(a, b *Row) int { return b.Failing() - a.Failing() },
		func(a, b *Row) int { return atCap(b) - atCap(a) },
		func(a, b *Row) int { return b.MaxFailures - a.MaxFailures },
	}
	var keys []func(a, b *Row) int
	switch by {
	case SortFailing:
		keys = append([]func(a, b *Row) int{worst[1]}, worst...)
	case SortFailures:
		keys = append([]func(a, b *Row) int{worst[3]}, worst...)
	case SortCap:
		keys = append([]func(a, b *Row) int{worst[2]}, worst...)
	case SortForgets:
		keys = append([]func(a, b *Row) int{func(a, b *Row) int { return b.ForgetsLastDay - a.ForgetsLastDay }}, worst...)
	case SortName:
	default:
		keys = worst
	}
	slices.SortStableFunc(rows, func(a, b Row) int {
		for _, k := range keys {
			if c := k(&a, &b); c != 0 {
				return c
			}
		}
		return compareStrings(a.ID(), b.ID())
	})
}

func compareStrings(a, b string) int { return strings.Compare(a, b) }

// CheckFilter says why expr is not a filter Filter takes: a substring
// (smart case) or a "~" regular expression, as top's and get's -q.
func CheckFilter(expr string) error { return query.CheckPattern("q", expr) }

// Filter keeps the rows whose cluster/namespace/controller passes expr
// and, when clusters is not empty, whose cluster is one of them.
func Filter(rows []Row, expr string, clusters []string) []Row {
	match := query.MatchText(expr)
	var out []Row
	for _, r := range rows {
		if len(clusters) > 0 && !slices.Contains(clusters, r.Cluster) {
			continue
		}
		if match(r.ID()) {
			out = append(out, r)
		}
	}
	return out
}
