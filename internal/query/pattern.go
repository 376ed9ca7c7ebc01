package query

import (
	"cmp"
	"regexp"
	"slices"
	"strings"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// FingerprintFilter is the one way a fingerprint becomes a filter: the
// error pattern (v1/keys' error parameter) that selects the keys whose last
// error has fingerprint fp. It is a regular expression anchored at both
// ends, each fold (api.FingerprintFold) read as any text; if that is over
// the engine's bounds (length, cost: a fold is a branch point), the longest
// literal part as a substring, which selects a superset. Either way it is a
// pattern the engine accepts.
func FingerprintFilter(fp string) string {
	parts := strings.Split(fp, api.FingerprintFold)
	quoted := make([]string, len(parts))
	for i, p := range parts {
		quoted[i] = regexp.QuoteMeta(p)
	}
	re := "~^" + strings.Join(quoted, ".*") + "$"
	if CheckPattern("error", re) == nil {
		return re
	}
	longest := slices.MaxFunc(parts, func(a, b string) int { return cmp.Compare(len(a), len(b)) })
	longest = strings.TrimLeft(longest, "~")
	for _, n := range []int{MaxQueryLen, MaxFoldQuery} {
		if s := longest[:min(len(longest), n)]; CheckPattern("error", s) == nil {
			return s
		}
	}
	return "" // not reached: a substring of MaxFoldQuery bytes is accepted
}
