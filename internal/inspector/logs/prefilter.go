package logs

import (
	"bytes"
	"slices"
)

// markerSet finds, in one pass over a line, whether it holds any of a set
// of markers (the words of every loaded dialect's lines): most of a busy
// controller's log holds none, and is skipped before it is decoded. A loop
// of bytes.Contains per marker scans the line once per marker — two dozen
// times for a line that holds none, which is every line worth skipping;
// this scans it once. Each position is tested against a bitmap of the
// markers' first two bytes, and only a hit is compared with the markers
// that start so.
type markerSet struct {
	// pairs has bit a<<8|b set when a marker starts with the bytes a, b.
	pairs [1 << 16 / 64]uint64
	// byFirst are the markers by their first byte.
	byFirst [256][][]byte
	// short are markers of one byte; all says every line may be a record
	// (a dialect file's regexp with no literal start): no line is skipped.
	short []byte
	all   bool
}

// newMarkerSet is the set of markers ms.
func newMarkerSet(ms [][]byte) *markerSet {
	s := &markerSet{}
	for _, m := range ms {
		switch len(m) {
		case 0:
			s.all = true
		case 1:
			s.short = append(s.short, m[0])
		default:
			k := uint16(m[0])<<8 | uint16(m[1])
			s.pairs[k/64] |= 1 << (k % 64)
			s.byFirst[m[0]] = append(s.byFirst[m[0]], m)
		}
	}
	return s
}

// has says whether line holds one of the markers.
func (s *markerSet) has(line []byte) bool {
	if s.all || len(s.short) > 0 && bytes.ContainsAny(line, string(s.short)) {
		return true
	}
	for i := 0; i+1 < len(line); i++ {
		k := uint16(line[i])<<8 | uint16(line[i+1])
		if s.pairs[k/64]&(1<<(k%64)) == 0 {
			continue
		}
		for _, m := range s.byFirst[line[i]] {
			if bytes.HasPrefix(line[i:], m) {
				return true
			}
		}
	}
	return false
}

// builtinMarkers are the built-in dialects' and the generic reader's.
var builtinMarkers = newMarkerSet(markers)

// dialectMarkers is the set for a read with dialect files: the built-in
// markers and each file's (markersOf: its lines' texts, or their regexps'
// literal starts; none: every line is read).
func dialectMarkers(ds []Dialect) *markerSet {
	if len(ds) == 0 {
		return builtinMarkers
	}
	ms := slices.Clone(markers)
	for _, d := range ds {
		for _, m := range d.markers {
			ms = append(ms, []byte(m))
		}
	}
	return newMarkerSet(ms)
}
