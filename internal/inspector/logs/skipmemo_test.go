package logs

import (
	"bytes"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSkippedLinesAreSkips: a line the skipped lines say is skipped, the
// prefilter skips, with the hints hintsOf finds; and a line that differs
// from one kept in a short run only in bytes no marker or hint holds is
// said to be. Each line of the fixtures the prefilter skips with no hint
// is changed at random in a run of bytes: its digits, or to anything a log
// holds, often a marker or a hint's words across or beside it.
func TestSkippedLinesAreSkips(t *testing.T) {
	all, err := filepath.Glob("testdata/*/*.log")
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewSource(18))
	words := [][]byte{replicaSetFile, []byte("replica_set.go:"), loggerField, []byte(" event.go:"), retryMarker}
	words = append(words, markers...)
	const noise = "0123456789abcdefxyz.:-_ =\"{}[]ETRror"
	ref := parseRef{at: memoRef}
	var kept, hits, refused, searched int
	for _, name := range all {
		if strings.HasPrefix(name, "testdata/heldout") {
			continue // never read here
		}
		raw, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range bytes.SplitAfter(raw, []byte("\n")) {
			if !ref.skips(line) || hintsOf(line, outSkipped) != (lineHints{}) || len(line) < 8 || len(line) > memoMaxLine {
				continue
			}
			kept++
			var k skippedLines
			k.keep(line, lineHints{})
			for try := 0; try < 20; try++ {
				mut := bytes.Clone(line)
				at := rng.Intn(len(mut))
				switch rng.Intn(4) {
				case 3: // a time's or a counter's digits
					for j := at; j < min(len(mut), at+1+rng.Intn(2*skipMaxDiff)); j++ {
						if mut[j] >= '0' && mut[j] <= '9' {
							mut[j] = byte('0' + rng.Intn(10))
						}
					}
				case 0: // a marker or a hint's words, whole or in part, at or across the run
					w := words[rng.Intn(len(words))]
					w = w[rng.Intn(len(w)):]
					copy(mut[at:], w)
				default: // a few bytes of anything a log holds
					for j := at; j < min(len(mut), at+1+rng.Intn(2*skipMaxDiff)); j++ {
						mut[j] = noise[rng.Intn(len(noise))]
					}
				}
				var h lineHints
				got := k.skipped(mut, &ref, &h)
				wantSkip, wantHints := ref.skips(mut), hintsOf(mut, outSkipped)
				if got && (!wantSkip || h != wantHints) {
					t.Fatalf("kept %q\nchanged to %q: said skipped with hints %+v; the prefilter skips it: %v, hints %+v", line, mut, h, wantSkip, wantHints)
				}
				diff, plain := 0, true // bytes changed; none a marker's or a hint's
				for i := range mut {
					if mut[i] != line[i] {
						diff++
						plain = plain && !builtinMarkers.stop[mut[i]] && !hintBytes[mut[i]]
					}
				}
				if !got && diff <= skipMaxDiff && plain {
					t.Fatalf("kept %q\nchanged to %q in %d bytes, none a marker's: not said to be skipped", line, mut, diff)
				}
				switch {
				case got:
					hits++
				case !wantSkip:
					refused++ // a marker put in, or a hint
				default:
					searched++ // skipped, found so by the prefilter
				}
			}
		}
	}
	t.Logf("%d lines kept; changed: %d said skipped, %d searched and skipped, %d not skipped", kept, hits, searched, refused)
	if kept < 100 || hits < 1000 || refused < 100 {
		t.Fatalf("%d lines kept; changed: %d said skipped, %d not skipped: want the fixtures' skipped lines, and both answers", kept, hits, refused)
	}
}

// TestDiffersPlainlyIsByByte: differsPlainly, a block and eight bytes at a
// time, says what a comparison byte by byte says, on lines as long as the
// memo's that differ in a few bytes or many, stop bytes among them.
func TestDiffersPlainlyIsByByte(t *testing.T) {
	rng := rand.New(rand.NewSource(19))
	var stop [256]bool
	for _, c := range "Rr\"{:" {
		stop[c] = true
	}
	byByte := func(a, b []byte) bool {
		diff := 0
		for i := range a {
			if a[i] != b[i] {
				if diff++; diff > skipMaxDiff || stop[b[i]] {
					return false
				}
			}
		}
		return true
	}
	seen := map[bool]int{}
	for try := 0; try < 20000; try++ {
		a := make([]byte, rng.Intn(400))
		for i := range a {
			a[i] = byte('a' + rng.Intn(26))
		}
		b := bytes.Clone(a)
		for range rng.Intn([]int{2, 8, 40}[rng.Intn(3)]) {
			if len(b) > 0 {
				b[rng.Intn(len(b))] = "0123456789Rr\"x"[rng.Intn(14)]
			}
		}
		want := byByte(a, b)
		if got := differsPlainly(a, b, &stop); got != want {
			t.Fatalf("differsPlainly(%q, %q) = %v, byte by byte %v", a, b, got, want)
		}
		seen[want]++
	}
	if seen[true] == 0 || seen[false] == 0 {
		t.Fatalf("the lines tried all gave one answer: %v", seen)
	}
}
