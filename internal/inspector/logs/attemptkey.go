package logs

import (
	"strings"
	"time"
)

// Some failure lines name no key: kube-controller-manager's job controller
// logs HandleError(fmt.Errorf("syncing job: %w", err)) in
// processNextWorkItem (job_controller.go:753), the key in none of it; its
// HPA controller logs the error of reconcileAutoscaler alone
// (horizontal.go:354), which names the scale target ("failed to query
// scale subresource for Deployment/ns/web: …"), not the HPA. The key is on
// a line of the same attempt, just before, by the same controller: a
// dialect's names-key line (KeyLine: "Finished syncing job" key=KEY at
// V(4), "Failed creation, decrementing expectations" job=KEY at V(2),
// "Successfully updated status" HPA=KEY at V(2)). Such a failure takes
// the key the controller's last names-key line named, when that line is
// within attemptWindow before it and no other key was named in that
// window (two workers' attempts interleave: no key is better than a false
// one). A failure line that names the object its own way (Record.Alias,
// the HPA's target) teaches that alias: a later failure of the same alias
// whose attempt named no key (the HPA's status unchanged, so not written
// again) is the same key's. An alias that two keys claimed, or one whose
// namespace is not its key's, names none. The rest are not read.

// attemptKey is the key a controller's last names-key line named.
type attemptKey struct {
	at        time.Time
	ns, name  string
	ambiguous time.Time // another key was named within attemptWindow of this
}

// noteAttemptKeyLocked takes a KeyLine: the key of its controller's
// failure that follows.
func (s *Store) noteAttemptKeyLocked(r Record) {
	if s.attemptKeys == nil || len(s.attemptKeys) > 4*DefaultMaxKeys {
		s.attemptKeys = map[string]attemptKey{}
	}
	k := attemptKey{at: r.At, ns: r.Namespace, name: r.Name}
	if prev, ok := s.attemptKeys[r.Controller]; ok && (prev.ns != k.ns || prev.name != k.name) && within(prev.at, r.At) {
		k.ambiguous = r.At
	} else if ok && within(prev.ambiguous, r.At) {
		k.ambiguous = prev.ambiguous
	}
	s.attemptKeys[r.Controller] = k
}

// within says b is at most attemptWindow after a (either unknown: no).
func within(a, b time.Time) bool {
	if a.IsZero() || b.IsZero() {
		return false
	}
	d := b.Sub(a)
	return d >= 0 && d <= attemptWindow
}

// attemptKeyLocked puts on r, a failure line that names no key, the key
// of its attempt; false when none is known for sure (r.NotRead says why).
func (s *Store) attemptKeyLocked(r *Record) bool {
	alias := ""
	if r.Alias != "" {
		alias = r.Controller + "\x00" + r.Alias
	}
	k, ok := s.attemptKeys[r.Controller]
	switch {
	case ok && within(k.at, r.At) && !within(k.ambiguous, r.At):
		delete(s.attemptKeys, r.Controller) // one attempt, one failure
		if r.Alias != "" && !aliasOf(r.Alias, k.ns) {
			r.NotRead = "its attempt's line names " + keyOf(k.ns, k.name) + ", in another namespace than " + r.Alias
			return false
		}
		r.Namespace, r.Name = k.ns, k.name
		if alias != "" && strings.Contains(r.Alias, "/") { // a name alone is no namespace's
			s.learnAliasLocked(alias, keyOf(k.ns, k.name))
		}
		return true
	case ok && within(k.at, r.At):
		r.NotRead = "names no key, and two keys were named by its controller's lines just before it"
		return false
	}
	if key := s.aliases[alias]; alias != "" && key != "" {
		r.Namespace, r.Name = splitKey(key)
		return true
	}
	r.NotRead = "names no key, and no line of its controller just before it names one"
	return false
}

// learnAliasLocked notes that alias (controller NUL alias) names key; two
// keys for one alias leave it naming none, for good.
func (s *Store) learnAliasLocked(alias, key string) {
	if s.aliases == nil {
		s.aliases = map[string]string{}
	}
	if prev, ok := s.aliases[alias]; ok && prev != key {
		key = ""
	}
	if len(s.aliases) < 4*DefaultMaxKeys || key == "" {
		s.aliases[alias] = key
	}
}

// aliasOf says whether alias (KIND/NAMESPACE/NAME or NAMESPACE/NAME, the
// object a failure line names) may be an object of namespace ns: the HPA
// controller names its target in the HPA's own namespace.
func aliasOf(alias, ns string) bool {
	parts := strings.Split(alias, "/")
	if len(parts) < 2 {
		return true // a name alone says no namespace
	}
	return parts[len(parts)-2] == ns
}

// keyOf is namespace/name, or name when cluster-scoped.
func keyOf(ns, name string) string {
	if ns == "" {
		return name
	}
	return ns + "/" + name
}

// anyKey is the key a line names in its fields, wherever: a family's key
// field (key=), the one field of no known name whose value is a key
// (job="ns/x", HPA="ns/x"), the request or object, or namespace and name.
func (f *fields) anyKey() (string, string) {
	switch {
	case f.alt != "":
		return splitKey(f.alt)
	case f.keyFields == 1:
		return splitRef(f.keyField)
	case f.ref() != "":
		return splitRef(f.ref())
	}
	return f.namespace, f.name
}
