package snapshot

import (
	"cmp"
	"net/http"
	"regexp"
	"slices"
	"strings"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

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
	m, err := inspector.NewKeyFilter(inspector.FilterParams(r.URL.Query()))
	if err != nil {
		inspector.ServeError(w, http.StatusBadRequest, err.Error())
		return
	}
	name := r.URL.Query().Get("controller")
	if _, ok := s.selected(w, r); !ok {
		return
	}
	fps := s.fingerprints()
	out := api.ErrorGroupList{ServerTime: s.ep.ServerTime}
	var groups inspector.ErrorGroupBuilder
	for j, k := range s.ep.Keys {
		if name != "" && k.Controller != name {
			continue
		}
		out.Total++
		if k.LastError == nil || !m.Match(k.Key, k.LastError.Message, k.State) {
			continue
		}
		out.Matched++
		groups.Add(&k, fps[j])
	}
	out.Groups = groups.Groups()
	inspector.ServeJSON(w, http.StatusOK, out)
}
