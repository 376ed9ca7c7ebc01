package snapshot

import (
	"cmp"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// maxQueryLen bounds a filter's q, as the endpoint does.
const maxQueryLen = 1024

// maxExamples is how many keys an error group names, as the endpoint does.
const maxExamples = 5

// fingerprints returns, for each key with an error (by index in the
// endpoint's keys), the fingerprint of the server's group its message
// falls in: the group whose fingerprint, its folds (api.FingerprintFold)
// read as wildcards, matches the message, the most specific first. A
// message no group matches is its own fingerprint. Computed once: a
// snapshot does not change.
func (s *server) fingerprints() []string {
	s.once.Do(func() {
		type pattern struct {
			fingerprint string
			re          *regexp.Regexp
		}
		byController := map[string][]pattern{}
		for _, g := range s.ep.ErrorGroups {
			parts := strings.Split(g.Fingerprint, api.FingerprintFold)
			for i := range parts {
				parts[i] = regexp.QuoteMeta(parts[i])
			}
			re, err := regexp.Compile(`^(?s:` + strings.Join(parts, ".+?") + `)$`)
			if err == nil {
				byController[g.Controller] = append(byController[g.Controller], pattern{g.Fingerprint, re})
			}
		}
		for _, ps := range byController {
			slices.SortStableFunc(ps, func(a, b pattern) int { return cmp.Compare(len(b.fingerprint), len(a.fingerprint)) })
		}
		s.fps = make([]string, len(s.ep.Keys))
		for i, k := range s.ep.Keys {
			if k.LastError == nil {
				continue
			}
			s.fps[i] = k.LastError.Message
			for _, p := range byController[k.Controller] {
				if p.fingerprint == k.LastError.Message || p.re.MatchString(k.LastError.Message) {
					s.fps[i] = p.fingerprint
					break
				}
			}
		}
	})
	return s.fps
}

// errors is v1/errors over the snapshot's keys, grouped under the
// fingerprints the server gave them when the snapshot was taken.
func (s *server) errors(w http.ResponseWriter, r *http.Request) {
	m, err := newMatcher("", states(r))
	if err != nil {
		serveError(w, http.StatusBadRequest, err.Error())
		return
	}
	name := r.URL.Query().Get("controller")
	if _, ok := s.selected(w, r); !ok {
		return
	}
	fps := s.fingerprints()
	out := api.ErrorGroupList{ServerTime: s.ep.ServerTime, Groups: []api.ErrorGroup{}}
	at := map[key]int{}
	for j, k := range s.ep.Keys {
		if name != "" && k.Controller != name {
			continue
		}
		out.Total++
		if k.LastError == nil || !m.match(&k) {
			continue
		}
		out.Matched++
		id := key{k.Controller, fps[j]}
		i, ok := at[id]
		if !ok {
			i = len(out.Groups)
			at[id] = i
			out.Groups = append(out.Groups, api.ErrorGroup{Controller: k.Controller, Fingerprint: fps[j],
				Message: k.LastError.Message, Class: k.LastError.Class, FirstSeen: cmp.Or(k.FirstFailureAt, k.LastError.At)})
		}
		g := &out.Groups[i]
		g.Count++
		if first := cmp.Or(k.FirstFailureAt, k.LastError.At); first.Before(g.FirstSeen) {
			g.FirstSeen = first
		}
		if k.LastError.At.After(g.LastSeen) {
			g.LastSeen = k.LastError.At
		}
		g.Examples = append(g.Examples, k.Key)
	}
	for i := range out.Groups {
		g := &out.Groups[i]
		slices.Sort(g.Examples)
		g.Examples = g.Examples[:min(len(g.Examples), maxExamples)]
	}
	slices.SortFunc(out.Groups, func(a, b api.ErrorGroup) int {
		if c := cmp.Compare(b.Count, a.Count); c != 0 {
			return c
		}
		return cmp.Compare(a.Controller+"\x00"+a.Message, b.Controller+"\x00"+b.Message)
	})
	serveJSON(w, out)
}

// matcher is v1/keys' filter: q a substring of the key or its last error
// (ignoring case when q is lower case), or after a leading "~" a regular
// expression; states the verdicts to keep.
type matcher struct {
	q      string
	fold   bool
	re     *regexp.Regexp
	states map[api.State]bool
}

func newMatcher(q string, states []api.State) (matcher, error) {
	var m matcher
	if len(q) > maxQueryLen {
		return m, fmt.Errorf("parameter %q: longer than %d bytes", "q", maxQueryLen)
	}
	if rest, ok := strings.CutPrefix(q, "~"); ok {
		re, err := regexp.Compile(rest)
		if err != nil {
			return m, fmt.Errorf("parameter %q: bad regular expression: %v", "q", err)
		}
		m.re = re
	} else {
		m.q, m.fold = q, strings.ToLower(q) == q
	}
	for _, st := range states {
		if _, err := api.ParseState(string(st)); err != nil && st != api.StateUnknown {
			return m, fmt.Errorf("parameter %q: %v", "state", err)
		}
		if m.states == nil {
			m.states = map[api.State]bool{}
		}
		m.states[st] = true
	}
	return m, nil
}

func (m *matcher) match(k *api.Key) bool {
	if m.states != nil && !m.states[k.State] {
		return false
	}
	msg := ""
	if k.LastError != nil {
		msg = k.LastError.Message
	}
	switch {
	case m.re != nil:
		return m.re.MatchString(k.Key) || (msg != "" && m.re.MatchString(msg))
	case m.q == "":
		return true
	case m.fold:
		return strings.Contains(strings.ToLower(k.Key), m.q) || strings.Contains(strings.ToLower(msg), m.q)
	}
	return strings.Contains(k.Key, m.q) || strings.Contains(msg, m.q)
}

// states reads the state parameter: repeated, or comma-separated.
func states(r *http.Request) []api.State {
	var out []api.State
	for _, v := range r.URL.Query()["state"] {
		for s := range strings.SplitSeq(v, ",") {
			if s != "" {
				out = append(out, api.State(s))
			}
		}
	}
	return out
}
