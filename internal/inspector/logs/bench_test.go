package logs

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
)

// benchLines is the size of the benchmark's log: the goal is that it reads
// in under a second.
const benchLines = 100_000

// benchLog builds a log of benchLines lines in format f from what a real
// controller wrote (the scenario at V(5), with the builder's logger: the
// longest lines), its key renamed over 5,000 keys.
func benchLog(b *testing.B, f loggerFormat) []byte {
	lines := runScenario(b, f, true, true)
	var buf bytes.Buffer
	for n, i := 0, 0; n < benchLines; i++ {
		for _, l := range lines {
			if n == benchLines {
				break
			}
			buf.WriteString(strings.ReplaceAll(l, "w1", fmt.Sprintf("w%d", i%5000)))
			buf.WriteByte('\n')
			n++
		}
	}
	return buf.Bytes()
}

// BenchmarkRead100k reads 100,000 lines of real controller output into a
// store, beside the baseline of only splitting them into lines.
func BenchmarkRead100k(b *testing.B) {
	for _, f := range []loggerFormat{formats[0], formats[3], formats[4]} {
		log := benchLog(b, f)
		b.Run(f.name+"/lines-only", func(b *testing.B) {
			b.SetBytes(int64(len(log)))
			for b.Loop() {
				sc := bufio.NewScanner(bytes.NewReader(log))
				sc.Buffer(make([]byte, 64<<10), maxLineBytes)
				n := 0
				for sc.Scan() {
					n++
				}
				if n != benchLines {
					b.Fatalf("%d lines, want %d", n, benchLines)
				}
			}
		})
		for _, w := range []struct {
			name    string
			workers int
		}{{"/parse-and-store-sequential", 1}, {"/parse-and-store", 0}} {
			benchStore(b, f.name+w.name, log, w.workers)
		}
	}
}

// benchStore reads log into a store on workers (0: the default).
func benchStore(b *testing.B, name string, log []byte, workers int) {
	b.Run(name, func(b *testing.B) {
		b.SetBytes(int64(len(log)))
		b.ReportAllocs()
		for b.Loop() {
			s := NewStore(Options{Workers: workers})
			n, _, err := s.Read(context.Background(), bytes.NewReader(log))
			if err != nil || n != benchLines {
				b.Fatalf("Read: %d lines, %v; want %d", n, err, benchLines)
			}
			if s.Len() == 0 {
				b.Fatal("no keys")
			}
		}
	})
}
