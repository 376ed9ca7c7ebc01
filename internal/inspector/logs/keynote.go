package logs

// A failure line's key is looked up in three maps by its bytes: the
// store's entries (keys, with its controller), the key's last failure said
// (said: echo.go) and its last error stated (keyErrs: sameerror.go). In a
// log of thousands of keys each is a lookup out of the cache, a few
// misses each, at each of a key's turns: in BenchmarkRead1M's log, of
// 5,000 keys, the three were an eighth of a parallel read's CPU time. And
// two of them are made where the held batch is applied (flushHeld),
// thousands of records after the record was read.
//
// keyNote is a key's one lookup: made when its record is read in the
// log's order (apply, keyNoteOf), held with the record (heldRecord.note),
// and given to what applies it (keyNotes.applying). It keeps where the
// key's said failure, last error and entry were found or made last, each
// with the generation of its map then: a map made anew (said's and
// keyErrs' bound) or an entry evicted moves its generation on, and a
// place kept from an older one is looked up again. So what a note gives
// is what the map would: a map's value for a key changes only when it is
// made anew or evicted from. The notes are a cache, bounded as said is.

// keyNote is where a key's said failure, last error and entry were found
// last (keyNotes' generations), and the parts of the record it was looked
// up for last.
type keyNote struct {
	// key is the key, "namespace/name" (Record.Key): the one string of
	// it the notes, said and keyErrs keep.
	key             string
	namespace, name string
	said            *saidFailure
	err             *keyError
	entry           *entry
	saidGen, errGen uint32
	entryGen        uint32
}

// keyNotes are a store's notes, and the generations of the maps they keep
// places in.
type keyNotes struct {
	m    map[string]*keyNote
	last *keyNote // the note keyNoteOf gave last
	key  []byte   // the key looked up last, a buffer kept
	// flush is the note of the held record being applied (flushHeld).
	flush                     *keyNote
	saidGen, errGen, entryGen uint32
}

// isFor says whether n was looked up last for r's key: by r's own strings
// (sameString), so no byte is compared.
func (n *keyNote) isFor(r *Record) bool {
	return sameString(n.name, r.Name) && sameString(n.namespace, r.Namespace)
}

// keyNoteOf is the note of r's key (nil for a record with none), made when
// there is none.
func (s *Store) keyNoteOf(r *Record) *keyNote {
	if r.Namespace == "" && r.Name == "" {
		return nil
	}
	n := &s.notes
	if l := n.last; l != nil && l.isFor(r) {
		return l
	}
	k := append(n.key[:0], r.Namespace...)
	if r.Namespace != "" {
		k = append(k, '/')
	}
	k = append(k, r.Name...)
	n.key = k
	note := n.m[string(k)]
	if note == nil {
		if n.m == nil || len(n.m) > 4*DefaultMaxKeys {
			n.m = map[string]*keyNote{}
		}
		note = &keyNote{key: string(k)}
		n.m[note.key] = note
	}
	note.namespace, note.name = r.Namespace, r.Name
	n.last = note
	return note
}

// applying is the note held with r, the record being applied, when it is
// r's key's (nil else: a record not held, or whose key was changed).
func (n *keyNotes) applying(r *Record) *keyNote {
	if f := n.flush; f != nil && f.isFor(r) {
		return f
	}
	return nil
}

// saidOf is n's said failure when it was found in said's generation gen.
func (n *keyNote) saidOf(gen uint32) *saidFailure {
	if n == nil || n.said == nil || n.saidGen != gen {
		return nil
	}
	return n.said
}

// errOf is n's last error when it was found in keyErrs' generation gen.
func (n *keyNote) errOf(gen uint32) *keyError {
	if n == nil || n.err == nil || n.errGen != gen {
		return nil
	}
	return n.err
}

// entryOf is n's entry when it is r's controller's and was found in the
// entries' generation gen.
func (n *keyNote) entryOf(r *Record, gen uint32) *entry {
	if n == nil || n.entry == nil || n.entryGen != gen || n.entry.controller != r.Controller {
		return nil
	}
	return n.entry
}
