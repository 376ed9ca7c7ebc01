package logs

import "unsafe"

// A log names a new reconcileID for each reconcile: BenchmarkRead1M's log
// names 385,000, and each was a string of its own, some 60 % of a read's
// allocations (the line memo reads everything else of such a line without
// one). shortStrings makes such strings in blocks instead: a string's
// bytes are appended to the block and never written again (a full block
// is left as it is, and the next string starts a new one), so the string
// is as immutable as any other.
//
// A string keeps its whole block alive. So what keeps an ID for long
// keeps no string of a record: handledIDs a UUID's 16 bytes (or a copy of
// any other ID), an entry its reconcile's start in a buffer of its own
// (entry.startID). A record's ID keeps a few blocks alive while its chunk
// or its held batch does. Only the line memo's records, a named dialect's,
// take their ID from here: the generic reader's candidates may be held
// for long (evidence.go).
type shortStrings struct{ block []byte }

// shortBlock is the size of a shortStrings block, and shortMax the longest
// string made in one (a longer one is a string of its own).
const (
	shortBlock = 4 << 10
	shortMax   = 128
)

// shortOf is a string of b's bytes, made in a's block.
func shortOf[T string | []byte](a *shortStrings, b T) string {
	if len(b) == 0 || len(b) > shortMax {
		return string(b)
	}
	if cap(a.block)-len(a.block) < len(b) {
		a.block = make([]byte, 0, shortBlock)
	}
	n := len(a.block)
	a.block = append(a.block, b...)
	return unsafe.String(&a.block[n], len(b))
}
