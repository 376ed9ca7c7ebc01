package logs

import (
	"bytes"
	"syscall"
	"testing"
	"time"
)

// BenchmarkParse100k is the workers' share of BenchmarkRead100k's zap JSON
// log: each line's kubelet time, prefilter and parse, as parseChunk does
// them, without the store. Its ns/op beside the store's tells which of the
// two a change to the reader bought.
func BenchmarkParse100k(b *testing.B) {
	log := benchLog(b, formats[0])
	lines := bytes.SplitAfter(log, []byte("\n"))
	s := NewStore(Options{})
	b.SetBytes(int64(len(log)))
	b.ReportAllocs()
	defer reportCPU(b, syscall.RUSAGE_SELF)()
	for b.Loop() {
		in := newInterner()
		ref := parseRef{at: time.Now(), markers: s.markers, intern: in}
		for _, l := range lines {
			s.lineTime(l, time.Time{}, ref.at)
			parse(l, ref)
		}
	}
}
