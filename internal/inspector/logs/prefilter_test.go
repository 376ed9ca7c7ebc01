package logs

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
)

// TestMarkersFindEveryMessage: the prefilter lets through every built-in
// message as a klog text line writes it and as a JSON or logfmt value
// escapes it (prometheus-operator's `Sync "ns/x" failed` in a "msg" is
// `Sync \"ns/x\" failed`), by the dialects' own markers — not by the
// generic reader's words, which may change.
func TestMarkersFindEveryMessage(t *testing.T) {
	own := newMarkerSet(markers[:len(markers)-len(genericMarkers)])
	for _, d := range builtins {
		for _, l := range d.Lines {
			text := l.Text
			if l.Regexp != nil {
				text, _ = l.Regexp.LiteralPrefix() // a regexp line's literal start
			}
			q := strconv.Quote(text)
			for _, line := range []string{"E1203 10:00:05.000000 1 c.go:1] " + text + "x", `{"msg":"` + q[1:len(q)-1] + `x"}`} {
				if !own.has([]byte(line)) {
					t.Errorf("%s: the prefilter skips %s", d.Name, line)
				}
			}
		}
	}
}

// TestMarkerSetAnchors: a marker is found wherever it is on a line, by
// its anchor (its rarest pair) as by its start — at the line's start and
// end, overlapping another, cut by one byte — for random lines made of the
// markers' own bytes, where near misses are many.
func TestMarkerSetAnchors(t *testing.T) {
	set := newMarkerSet(markers)
	rng := rand.New(rand.NewPCG(42, 42))
	for n := 0; n < 20000; n++ {
		var line []byte
		for range rng.IntN(6) {
			m := markers[rng.IntN(len(markers))]
			switch rng.IntN(4) {
			case 0:
				m = m[:rng.IntN(len(m))] // cut: a near miss
			case 1:
				m = m[rng.IntN(len(m)):]
			}
			line = append(line, m...)
			if rng.IntN(2) == 0 {
				line = append(line, "xe\"rq"[rng.IntN(5)])
			}
		}
		if e, a := hasMarker(line), set.has(line); e != a {
			t.Fatalf("%q: anchored says %v, marker by marker %v", line, a, e)
		}
	}
}

// TestMarkerSetStride: a set of markers of three bytes or more, scanned
// at every other byte, and one with a marker of two, scanned at every
// byte, find a marker exactly where a search marker by marker does, at
// every position and parity, on random lines of the markers' own bytes.
func TestMarkerSetStride(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	const alphabet = "abcr'"
	word := func(n int) []byte {
		w := make([]byte, n)
		for i := range w {
			w[i] = alphabet[rng.IntN(len(alphabet))]
		}
		return w
	}
	for _, shortest := range []int{2, 3} {
		for range 300 {
			var ms [][]byte
			for range 1 + rng.IntN(5) {
				ms = append(ms, word(shortest+rng.IntN(4)))
			}
			set := newMarkerSet(ms)
			if want := map[bool]int{true: 1, false: 2}[slices.ContainsFunc(ms, func(m []byte) bool { return len(m) == 2 })]; set.stride != want {
				t.Fatalf("markers %q: stride %d, want %d", ms, set.stride, want)
			}
			for range 200 {
				line := word(rng.IntN(24))
				want := slices.ContainsFunc(ms, func(m []byte) bool { return bytes.Contains(line, m) })
				if got := set.has(line); got != want {
					t.Fatalf("markers %q, line %q: has %v, want %v", ms, line, got, want)
				}
			}
		}
	}
}

// BenchmarkMarkerSetHas is the prefilter on a production log's lines
// (mixTemplates': two skipped, two read), per round of the four.
func BenchmarkMarkerSetHas(b *testing.B) {
	ok, fail := mixTemplates(b)
	var lines [][]byte
	for _, l := range append(ok, fail...) {
		lines = append(lines, []byte(l))
	}
	for b.Loop() {
		for _, l := range lines {
			builtinMarkers.has(l)
		}
	}
}
