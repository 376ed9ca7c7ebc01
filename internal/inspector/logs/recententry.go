package logs

import (
	"time"
	"unsafe"
)

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
	e [4]*entry
	// by are the parts of the key each entry was found by last. A
	// record's parts are its reader's strings (the interner's, the line
	// memo's names), the same string record after record: the same bytes
	// at the same place are the same key, told without reading the
	// entry's key or comparing any byte (a comparison of the controller,
	// the namespace and the name for each of the four, and the entries'
	// keys read, were a sixteenth of a parallel read's instructions).
	by   [4]recordKey
	next int    // the slot the next entry found takes
	key  []byte // the key looked up last, a buffer kept
}

// recordKey are a record's controller, namespace and name.
type recordKey struct{ controller, namespace, name string }

// same says whether p are r's parts: the same strings, not only equal ones.
func (p *recordKey) same(r *Record) bool {
	return sameString(p.name, r.Name) && sameString(p.namespace, r.Namespace) && sameString(p.controller, r.Controller)
}

// sameString says whether a and b are the same bytes of memory.
func sameString(a, b string) bool {
	return len(a) == len(b) && unsafe.StringData(a) == unsafe.StringData(b)
}

// recordEntryLocked is entryLocked of r's controller and key.
func (s *Store) recordEntryLocked(r *Record) (*entry, time.Time) {
	for i, e := range s.recent.e {
		if e != nil && s.recent.by[i].same(r) {
			return e, e.seen(r.At)
		}
	}
	for i, e := range s.recent.e {
		if e != nil && e.controller == r.Controller && e.isKey(r.Namespace, r.Name) {
			s.recent.by[i] = recordKey{r.Controller, r.Namespace, r.Name}
			return e, e.seen(r.At)
		}
	}
	note := s.notes.applying(r) // keynote.go
	if e := note.entryOf(r, s.notes.entryGen); e != nil {
		s.lastEntry = e
		s.recent.e[s.recent.next] = e
		s.recent.by[s.recent.next] = recordKey{r.Controller, r.Namespace, r.Name}
		s.recent.next = (s.recent.next + 1) % len(s.recent.e)
		return e, e.seen(r.At)
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
		key := r.Key()
		if note != nil {
			key = note.key // the same bytes, made once
		}
		e, newest = s.entryLocked(r.Controller, key, r.At)
	}
	if note != nil {
		note.entry, note.entryGen = e, s.notes.entryGen
	}
	s.recent.e[s.recent.next] = e
	s.recent.by[s.recent.next] = recordKey{r.Controller, r.Namespace, r.Name}
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
