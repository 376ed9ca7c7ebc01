package logs

import (
	"bytes"
	"strings"
)

// markerSet finds, in one pass over a line, whether it holds any of a set
// of markers (the words of every loaded dialect's lines): most of a busy
// controller's log holds none, and is skipped before it is decoded. A loop
// of bytes.Contains per marker scans the line once per marker — two dozen
// times for a line that holds none, which is every line worth skipping;
// this scans it once, as grep scans for a set of words: each marker is
// found by an anchor, the rarest pair of adjacent bytes in it (anchorRank),
// and each position of the line costs one test of its pair against a bitmap
// of the anchors. A marker's first two bytes made poor anchors ("co", "re"
// and "er" hit several times in every line of a controller's log, each hit
// a comparison with the markers that start so); rare pairs ("yn", "qu",
// "rr", "nn") make the comparisons rare, and the scan the cost.
type markerSet struct {
	// pairs has bit a|b<<8 set when a marker's anchor is the bytes a, b.
	pairs [1 << 16 / 64]uint64
	// byPair are the markers anchored at each pair, with the anchor's
	// offset in the marker.
	byPair map[uint16][]anchored
	// short are markers of one byte; all says every line may be a record
	// (a dialect file's regexp with no literal start): no line is skipped.
	short []byte
	all   bool
}

// anchored is a marker whose anchor is at off.
type anchored struct {
	m   []byte
	off int
}

// newMarkerSet is the set of markers ms.
func newMarkerSet(ms [][]byte) *markerSet {
	s := &markerSet{byPair: map[uint16][]anchored{}}
	for _, m := range ms {
		switch len(m) {
		case 0:
			s.all = true
		case 1:
			s.short = append(s.short, m[0])
		default:
			off := 0
			for i := 1; i+1 < len(m); i++ {
				if anchorRank(m[i], m[i+1]) < anchorRank(m[off], m[off+1]) {
					off = i
				}
			}
			k := uint16(m[off]) | uint16(m[off+1])<<8
			s.pairs[k/64] |= 1 << (k % 64)
			s.byPair[k] = append(s.byPair[k], anchored{m, off})
		}
	}
	return s
}

// has says whether line holds one of the markers.
func (s *markerSet) has(line []byte) bool {
	if s.all || len(s.short) > 0 && bytes.ContainsAny(line, string(s.short)) {
		return true
	}
	for i := 1; i < len(line); i++ {
		k := uint16(line[i-1]) | uint16(line[i])<<8
		if s.pairs[k/64]&(1<<(k%64)) != 0 && s.at(line, i-1, k) {
			return true
		}
	}
	return false
}

// at says whether a marker anchored at pair k is in line with its anchor
// at i.
func (s *markerSet) at(line []byte, i int, k uint16) bool {
	for _, a := range s.byPair[k] {
		if from := i - a.off; from >= 0 && bytes.HasPrefix(line[from:], a.m) {
			return true
		}
	}
	return false
}

// anchorRank is how often the pair a, b is met in a log line, roughly
// (lower is rarer): each byte by its class — a JSON or text line is mostly
// lower-case letters (the commonest of English first), quotes, spaces and
// punctuation, digits — summed. It only has to rank pairs within one
// marker; a wrong guess costs time, never an answer.
func anchorRank(a, b byte) int { return byteRank(a) + byteRank(b) }

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
// markers, every built-in message (a file's lines turn off no built-in
// line that a file-less read would have read through another path), and
// each file line's text, or its regexp's literal start (none: every line
// is read).
func dialectMarkers(ds []Dialect) *markerSet {
	if len(ds) == 0 {
		return builtinMarkers
	}
	ms := append([][]byte(nil), markers...)
	for _, fam := range families {
		for _, m := range fam.messages {
			ms = append(ms, unquoted(m.text))
		}
	}
	for _, d := range ds {
		for _, l := range d.Lines {
			text := l.Text
			if l.Regexp != nil {
				text, _ = l.Regexp.LiteralPrefix()
			}
			ms = append(ms, unquoted(text))
		}
	}
	return newMarkerSet(ms)
}

// unquoted is text up to its first quote or backslash: a JSON line, or an
// error quoted in an "Unhandled Error" line, escapes those.
func unquoted(text string) []byte {
	if i := strings.IndexAny(text, `"\`); i >= 0 {
		text = text[:i]
	}
	return []byte(text)
}
