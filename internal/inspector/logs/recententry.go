package logs

import "time"

// A record's entry is looked up by its key, "namespace/name", which a
// record holds in its two parts: building the key is a string allocated
// at each change of key, and looking it up a hash of both strings and a
// map probe, cold in a store of thousands of keys. A log's lines come from
// a few keys at a time (a reconcile's start and end, the workers' keys
// interleaved), so the last few entries are compared first, by the
// record's parts, which are the interner's strings.

// recentEntries are the entries recordEntryLocked found last; an evicted
// entry is never among them (entryLocked clears them when it evicts).
type recentEntries struct {
	e    [4]*entry
	next int    // the slot the next entry found takes
	key  []byte // the key looked up last, a buffer kept
}

// recordEntryLocked is entryLocked of r's controller and key.
func (s *Store) recordEntryLocked(r *Record) (*entry, time.Time) {
	for _, e := range s.recent.e {
		if e != nil && e.controller == r.Controller && e.isKey(r.Namespace, r.Name) {
			return e, e.seen(r.At)
		}
	}
	// Looked up by the key's bytes, built in a buffer: the key's string
	// is made only for an entry to make (a map lookup by a string of
	// bytes does not copy them).
	k := append(s.recent.key[:0], r.Namespace...)
	if r.Namespace != "" {
		k = append(append(k, '/'), r.Name...)
	} else {
		k = append(k, r.Name...)
	}
	s.recent.key = k
	var e *entry
	var newest time.Time
	if e = s.keys[keyID{r.Controller, string(k)}]; e != nil {
		s.lastEntry, newest = e, e.seen(r.At)
	} else {
		e, newest = s.entryLocked(r.Controller, r.Key(), r.At)
	}
	s.recent.e[s.recent.next] = e
	s.recent.next = (s.recent.next + 1) % len(s.recent.e)
	return e, newest
}

// isKey says whether e's key is the one of namespace ns and name name
// (Record.Key), without building it.
func (e *entry) isKey(ns, name string) bool {
	if ns == "" {
		return e.key == name
	}
	k := e.key
	return len(k) == len(ns)+1+len(name) && k[len(ns)] == '/' && k[:len(ns)] == ns && k[len(ns)+1:] == name
}

// seen notes a record of e's at at, and returns the time of its newest
// record before it.
func (e *entry) seen(at time.Time) time.Time {
	newest := e.lastSeen
	if at.After(e.lastSeen) {
		e.lastSeen = at
	}
	return newest
}
