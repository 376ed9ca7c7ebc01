package logs

import (
	"bytes"
	"slices"
	"strings"
)

// markerSet finds, in one pass over a line, whether it holds any of a set
// of markers (the words of every loaded dialect's lines): most of a busy
// controller's log holds none, and is skipped before it is decoded. A loop
// of bytes.Contains per marker scans the line once per marker — two dozen
// times for a line that holds none, which is every line worth skipping;
// this scans it once, as grep scans for a set of words: each marker is
// found by an anchor, its rarest pair of adjacent bytes in a log line
// (anchorRank), and each position of the line costs one test of its pair
// against a bitmap of the anchors. A marker's first two bytes made poor
// anchors ("co", "re", "up" and "ul" are in every line's "controller",
// "controllerGroup" and "default", each hit a comparison with the markers
// that start so); rare pairs ("yn", "kq", "rr") make the comparisons rare,
// and the scan the cost.
type markerSet struct {
	// pairs has bit a|b<<8 set when a marker's anchor is the bytes a, b.
	pairs [1 << 16 / 64]uint64
	// slot is, for each anchor pair, the index in byPair of the markers
	// anchored there: an array, not a map, as a hit is looked up on the
	// scan's path.
	slot   []uint16
	byPair [][]anchored
	// next is, for each slot, the bytes that follow its pair in its
	// markers (all 256 for a marker anchored at its end): a pair every
	// line holds ("ro" and "tr" in "controller" anchor "rror" and "etry")
	// is mostly a false hit, and one bit test of the byte after it
	// rejects it before the markers are compared.
	next [][4]uint64
	// short are markers of one byte; all says every line may be a record
	// (a dialect file's regexp with no literal start): no line is skipped.
	short []byte
	all   bool
	// stride is how far apart the pairs has tests are: 2 when every
	// marker of several bytes has three or more (each is anchored by two
	// adjacent pairs, one of which starts at an even byte wherever the
	// marker is), else 1.
	stride int
	// stop are the bytes of the markers and of the hints' words
	// (hintBytes): a line that differs from a skipped one only in other
	// bytes is skipped too, and has no hint (skipmemo.go).
	stop [256]bool
}

// anchored is a marker whose anchor is at off.
type anchored struct {
	m   []byte
	off int
}

// newMarkerSet is the set of markers ms.
func newMarkerSet(ms [][]byte) *markerSet {
	s := &markerSet{slot: make([]uint16, 1<<16), stride: 2, stop: hintBytes}
	for _, m := range ms {
		if len(m) == 2 {
			s.stride = 1
		}
	}
	for _, m := range ms {
		for _, c := range m {
			s.stop[c] = true
		}
		switch len(m) {
		case 0:
			s.all = true
		case 1:
			s.short = append(s.short, m[0])
		default:
			// Its anchor: its rarest pair, or with a stride of 2 its rarest
			// two adjacent pairs (a marker at an odd byte is found by the
			// second).
			width := s.stride
			off := 0
			for i := 1; i+width < len(m); i++ {
				if windowRank(m, i, width) < windowRank(m, off, width) {
					off = i
				}
			}
			for o := off; o < off+width; o++ {
				s.anchor(m, o)
			}
		}
	}
	return s
}

// windowRank is anchorRank of the width pairs of m from off.
func windowRank(m []byte, off, width int) int {
	r := 0
	for o := off; o < off+width; o++ {
		r += anchorRank(m[o], m[o+1])
	}
	return r
}

// anchor adds marker m, found by its pair at off.
func (s *markerSet) anchor(m []byte, off int) {
	k := uint16(m[off]) | uint16(m[off+1])<<8
	if s.pairs[k/64]&(1<<(k%64)) == 0 {
		s.pairs[k/64] |= 1 << (k % 64)
		s.slot[k] = uint16(len(s.byPair))
		s.byPair = append(s.byPair, nil)
		s.next = append(s.next, [4]uint64{})
	}
	n := &s.next[s.slot[k]]
	if off+2 < len(m) {
		n[m[off+2]/64] |= 1 << (m[off+2] % 64)
	} else {
		*n = [4]uint64{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)}
	}
	s.byPair[s.slot[k]] = append(s.byPair[s.slot[k]], anchored{m, off})
}

// has says whether line holds one of the markers.
func (s *markerSet) has(line []byte) bool {
	if s.all || len(s.short) > 0 && bytes.ContainsAny(line, string(s.short)) {
		return true
	}
	if s.stride == 2 {
		// Half the pairs: those that start at an even byte.
		for i := 0; i+1 < len(line); i += 2 {
			k := uint16(line[i]) | uint16(line[i+1])<<8
			if s.pairs[k/64]&(1<<(k%64)) != 0 && s.follows(line, i+2, k) && s.at(line, i, k) {
				return true
			}
		}
		return false
	}
	for i := 1; i < len(line); i++ {
		k := uint16(line[i-1]) | uint16(line[i])<<8
		if s.pairs[k/64]&(1<<(k%64)) != 0 && s.follows(line, i+1, k) && s.at(line, i-1, k) {
			return true
		}
	}
	return false
}

// follows says whether line[j], the byte after anchor pair k, may be
// one of its markers' (a line's end may be: a marker anchored at its end).
func (s *markerSet) follows(line []byte, j int, k uint16) bool {
	if j >= len(line) {
		return true
	}
	c := line[j]
	return s.next[s.slot[k]][c/64]&(1<<(c%64)) != 0
}

// at says whether a marker anchored at pair k is in line with its anchor
// at i.
func (s *markerSet) at(line []byte, i int, k uint16) bool {
	for _, a := range s.byPair[s.slot[k]] {
		if from := i - a.off; from >= 0 && bytes.HasPrefix(line[from:], a.m) {
			return true
		}
	}
	return false
}

// anchorRank is how often the pair a, b is met in a log line, roughly
// (lower is rarer): the times it is in typicalLines first (the keys and
// values every line of a controller repeats), then each byte by its class
// — text is mostly lower-case letters (the commonest of English first),
// quotes, spaces and punctuation, digits. It only has to rank the pairs of
// one marker; a wrong guess costs time, never an answer.
func anchorRank(a, b byte) int {
	return 100*bytes.Count(typicalLines, []byte{a, b}) + byteRank(a) + byteRank(b)
}

// typicalLines are what every line of a controller's log repeats, in the
// formats it is written in: controller-runtime's JSON and klog fields, a
// logfmt line's.
var typicalLines = []byte(`{"level":"info","ts":"2026-12-06T11:57:21.123Z","logger":"controller-runtime.manager","msg":"Starting workers",` +
	`"controller":"deployment","controllerGroup":"apps","controllerKind":"Deployment","Deployment":{"name":"web","namespace":"default"},` +
	`"namespace":"default","name":"web","reconcileID":"415b9d44-726d-4327","worker count":1,"caller":"controller/controller.go:234"}` +
	"\nI1206 11:57:21.123456       1 controller.go:234] \"Updated status\" controller=\"deployment\" logger=\"controller-runtime\" object=\"kube-system/web\"" +
	"\ntime=\"2026-12-06T11:57:21Z\" level=info msg=\"Updated status\" resource=default/web")

func byteRank(c byte) int {
	const common = "etaoinsrlcdumhpgfywbvk" // most to least, in log text
	switch {
	case c == ' ' || c == '"' || c == ':' || c == ',' || c == '.' || c == '/' || c == '-' || c == '_':
		return 30
	case c >= '0' && c <= '9':
		return 20
	case c >= 'a' && c <= 'z':
		if i := strings.IndexByte(common, c); i >= 0 {
			return 26 - i
		}
		return 2
	case c >= 'A' && c <= 'Z':
		return 3
	}
	return 1
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
