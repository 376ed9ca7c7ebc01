package logs

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestParallelReadMatchesSequential: a log parsed on several goroutines
// gives the answers of one read line by line, on every fixture (the
// golden's dump of every answer) and on a large generated log whose keys'
// lines span many chunks — a key's failures cut by a chunk's end, a klog
// value spread over lines across one, klog lines dated by the log's.
func TestParallelReadMatchesSequential(t *testing.T) {
	seq := allAnswers(t, Options{Workers: 1})
	for _, w := range []int{2, 3} {
		if par := allAnswers(t, Options{Workers: w}); par != seq {
			t.Errorf("fixtures read on %d workers differ from the sequential read", w)
		}
	}
	raw := largeLog(3*chunkLines + 17)
	seqAns := answersOnly(t, raw, Options{Workers: 1})
	for _, w := range []int{2, 4} {
		if got := answersOnly(t, raw, Options{Workers: w}); got != seqAns {
			gl, wl := strings.Split(got, "\n"), strings.Split(seqAns, "\n")
			for i := range min(len(gl), len(wl)) {
				if gl[i] != wl[i] {
					t.Fatalf("large log on %d workers, line %d:\n got  %.300s\n want %.300s", w, i+1, gl[i], wl[i])
				}
			}
			t.Fatalf("large log on %d workers: %d lines of answers, want %d", w, len(gl), len(wl))
		}
	}
	if !strings.Contains(seqAns, `"failures":`) {
		t.Fatal("the large log yields no failing key")
	}
}

// answersOnly is answers without the per-record and per-line dumps, which
// readRecordsWith gives the same whatever the workers.
func answersOnly(t *testing.T, raw []byte, opts Options) string {
	var b strings.Builder
	for _, l := range strings.Split(answers(t, raw, opts), "\n") {
		if !strings.HasPrefix(l, "record ") {
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}

// largeLog is n lines of the real shapes of testdata/wild: a
// controller-runtime zap JSON failure of one of 50 keys, a kubelet-dated
// year-less klog failure, a klog value over several lines, and lines of no
// dialect; a key's lines recur across every chunk.
func largeLog(n int) []byte {
	var b strings.Builder
	for i := 0; i < n; i++ {
		sec := i / 10
		ts := fmt.Sprintf("2026-12-03T10:%02d:%02d.%06dZ", sec/60%60, sec%60, i%1000000)
		switch i % 7 {
		case 0, 3:
			fmt.Fprintf(&b, `{"level":"error","ts":"%s","msg":"Reconciler error","controller":"widget","namespace":"ns","name":"w%d","reconcileID":"r%d","error":"dial tcp 10.0.0.7:443: connect: connection refused"}`+"\n", ts, i%50, i)
		case 1:
			fmt.Fprintf(&b, "%s E1203 10:%02d:%02d.000000       1 controller.go:321] \"Reconciler error\" err=\"quota\" controller=\"klogd\" namespace=\"q\" name=\"k%d\"\n", ts, sec/60%60, sec%60, i%13)
		case 2:
			fmt.Fprintf(&b, "E1203 10:%02d:%02d.000000       1 controller.go:497] \"Reconciler error\" err=<\n\tfirst line\n\tsecond line\n > controller=\"multi\" namespace=\"m\" name=\"x%d\"\n", sec/60%60, sec%60, i%5)
		case 4:
			fmt.Fprintf(&b, `{"level":"info","ts":"%s","msg":"updated status","controller":"widget","namespace":"ns","name":"w%d"}`+"\n", ts, i%50)
		case 5:
			fmt.Fprintf(&b, `{"level":"debug","ts":"%s","msg":"Reconcile successful","controller":"widget","namespace":"ns","name":"w%d"}`+"\n", ts, (i+1)%50)
		default:
			fmt.Fprintf(&b, "%s I1203 10:%02d:%02d.000000       1 leaderelection.go:258] successfully renewed lease\n", ts, sec/60%60, sec%60)
		}
	}
	return []byte(b.String())
}

// TestMarkerSetIsHasMarker: the one-pass prefilter finds a marker exactly
// where the marker-by-marker loop does, on every line of every fixture
// and on lines made to hold a marker at the start, the end and nowhere.
func TestMarkerSetIsHasMarker(t *testing.T) {
	var lines [][]byte
	for _, f := range answerFiles(t) {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, bytes.Split(raw, []byte("\n"))...)
	}
	for _, m := range markers {
		lines = append(lines, m, append([]byte("x "), m...), append(append([]byte{}, m...), " y"...), m[:len(m)-1], m[1:])
	}
	lines = append(lines, nil, []byte("R"), []byte("Re"))
	hits := 0
	for _, l := range lines {
		if e, a := hasMarker(l), builtinMarkers.has(l); e != a {
			t.Errorf("%q: one pass says %v, the loop %v", l, a, e)
		}
		if hasMarker(l) {
			hits++
		}
	}
	if hits == 0 || hits == len(lines) {
		t.Errorf("%d of %d lines hold a marker: the test needs both kinds", hits, len(lines))
	}
}
