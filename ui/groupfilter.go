package ui

import (
	"cmp"
	"regexp"
	"slices"
	"strings"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// fold is what the endpoint's error fingerprint (v1/errors) holds where it
// folded a number, address, id or quoted name; a lone fold gathers the
// rarest errors beyond the endpoint's bound.
const fold = api.FingerprintFold

// fingerprintFilter is a v1/keys filter that selects the keys whose last
// error has this fingerprint: a regular expression anchored at both ends,
// or, if that would be too long, the longest literal part as a substring.
func fingerprintFilter(fp string) string {
	parts := strings.Split(fp, fold)
	quoted := make([]string, len(parts))
	for i, p := range parts {
		quoted[i] = regexp.QuoteMeta(p)
	}
	re := "~^" + strings.Join(quoted, ".*") + "$"
	if len(re) <= maxFilterLen {
		return re
	}
	longest := slices.MaxFunc(parts, func(a, b string) int { return cmp.Compare(len(a), len(b)) })
	longest = strings.TrimPrefix(longest[:min(len(longest), maxFilterLen)], "~")
	return longest
}
