package ui

import (
	"cmp"
	"regexp"
	"slices"
	"strings"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// fold is the placeholder a fingerprint puts where a varying part was.
const fold = "…"

// maxFilterLen is the endpoint's bound on a filter's q.
const maxFilterLen = 1024

// The parts of an error message that vary between keys with the same cause,
// folded in this order: quoted names, IP addresses (with a port), UUIDs and
// long hex ids, then any other number (also inside names: widget-00042).
var (
	reQuoted = regexp.MustCompile("\"[^\"]*\"|'[^']*'|`[^`]*`")
	reIP     = regexp.MustCompile(`\[[0-9a-fA-F:.]+\](:\d+)?|\b\d{1,3}(\.\d{1,3}){3}(:\d+)?\b`)
	reHex    = regexp.MustCompile(`\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b|\b(0x)?[0-9a-fA-F]*[0-9][0-9a-fA-F]*[a-fA-F][0-9a-fA-F]*\b`)
	reNum    = regexp.MustCompile(`\d+(\.\d+)?`)
	reFolds  = regexp.MustCompile(`…(\W?…)+`)
)

// fingerprint folds what varies in an error message, so that the errors of
// one cause compare equal: `dial tcp 10.0.0.7:443: connect: connection
// refused` becomes `dial tcp …: connect: connection refused`.
func fingerprint(msg string) string {
	s := reQuoted.ReplaceAllStringFunc(msg, func(q string) string { return q[:1] + fold + q[len(q)-1:] })
	s = reIP.ReplaceAllString(s, fold)
	s = reHex.ReplaceAllStringFunc(s, func(h string) string {
		if len(strings.TrimPrefix(h, "0x")) < 8 {
			return h // a short word like "deadbeef" stays unless long: numbers fold next
		}
		return fold
	})
	s = foldNumbers(s)
	return reFolds.ReplaceAllString(s, fold)
}

// reStatus is an HTTP status ("503 Service Unavailable"): a cause, kept.
var reStatus = regexp.MustCompile(`^[1-5]\d\d [A-Z]`)

// foldNumbers folds every number but an HTTP status.
func foldNumbers(s string) string {
	var b strings.Builder
	last := 0
	for _, loc := range reNum.FindAllStringIndex(s, -1) {
		if reStatus.MatchString(s[loc[0]:]) && (loc[0] == 0 || s[loc[0]-1] == ' ') {
			continue
		}
		b.WriteString(s[last:loc[0]])
		b.WriteString(fold)
		last = loc[1]
	}
	b.WriteString(s[last:])
	return b.String()
}

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

// errorGroup is the keys whose last errors share a fingerprint.
type errorGroup struct {
	fingerprint string
	// example is one full message of the group.
	example string
	count   int
	// controllers counts the group's keys per controller, sorted by name.
	controllers []controllerCount
	states      map[api.State]int
}

type controllerCount struct {
	name  string
	count int
}

// noError is the group of keys that failed without an error (Requeue: true).
const noError = "(no error: Requeue: true)"

// groupErrors groups keys by the fingerprint of their last error, largest
// group first.
func groupErrors(keys []api.Key) []errorGroup {
	idx := map[string]int{}
	var out []errorGroup
	for _, k := range keys {
		fp, msg := noError, ""
		if k.LastError != nil {
			msg = k.LastError.Message
			fp = fingerprint(msg)
		}
		i, ok := idx[fp]
		if !ok {
			i = len(out)
			idx[fp] = i
			out = append(out, errorGroup{fingerprint: fp, example: msg, states: map[api.State]int{}})
		}
		g := &out[i]
		g.count++
		g.states[k.State]++
		j := slices.IndexFunc(g.controllers, func(c controllerCount) bool { return c.name == k.Controller })
		if j < 0 {
			g.controllers = append(g.controllers, controllerCount{name: k.Controller})
			j = len(g.controllers) - 1
		}
		g.controllers[j].count++
	}
	for i := range out {
		slices.SortFunc(out[i].controllers, func(a, b controllerCount) int { return strings.Compare(a.name, b.name) })
	}
	slices.SortStableFunc(out, func(a, b errorGroup) int {
		if c := cmp.Compare(b.count, a.count); c != 0 {
			return c
		}
		return strings.Compare(a.fingerprint, b.fingerprint)
	})
	return out
}
