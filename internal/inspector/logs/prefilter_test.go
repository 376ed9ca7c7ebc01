package logs

import (
	"math/rand/v2"
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
			q := strconv.Quote(l.Text)
			for _, line := range []string{"E1203 10:00:05.000000 1 c.go:1] " + l.Text + "x", `{"msg":"` + q[1:len(q)-1] + `x"}`} {
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
