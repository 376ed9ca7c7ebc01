package logs

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// lines1M is the size of BenchmarkRead1M's log: a day of a busy
// controller, about 400 MB of zap JSON.
const lines1M = 1_000_000

// log1M writes lines1M lines of zap JSON to a file under dir: what a real
// controller-runtime controller wrote at V(5) with its production encoder
// (runScenario's lines, kept in testdata/bench/v5.log: "Reconciler error",
// "Reconciling", "Reconcile successful", requeues, and its start-up
// lines), its failing key renamed over 5,000 keys, a new reconcileID for
// each reconcile and a second later each round (writeRounds: the same
// bytes every run).
func log1M(b *testing.B, dir string) (string, int64) {
	lines := benchTemplate(b, "v5.log")
	return writeRounds(b, filepath.Join(dir, "controller.log"), func(i int) ([]string, string, string) {
		return lines, "w1", fmt.Sprintf("w%d", i%5000)
	})
}

// jqPipeline is the pipeline a user would run instead: the failures per
// key, and nothing else.
const jqPipeline = `jq -r 'select(.msg=="Reconciler error") | .controller+" "+.namespace+"/"+.name' "$1" | sort | uniq -c`

// BenchmarkRead1M reads 1,000,000 lines (about 400 MB) of a real
// controller's zap JSON from a file, end to end, four ways in one run:
// today's reader line by line (Workers 1, the baseline), the parallel
// reader, the jq pipeline (the goal: at least 4× faster) and grep -c of
// the failure lines, the floor of reading the file (the goal: within 5×).
// Before timing, it checks that the readers' failure counts per key are
// the pipeline's. The log is the same bytes on every run (log1M): compare
// two runs' ratios, not their times, on a machine shared with other work.
func BenchmarkRead1M(b *testing.B) {
	path, size := log1M(b, b.TempDir())
	benchRead(b, path, size)
}

// benchRead is BenchmarkRead1M's four ways on the log at path, of size
// bytes and lines1M lines.
func benchRead(b *testing.B, path string, size int64) {
	read := func(b *testing.B, workers int) *Store {
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		defer f.Close()
		s := NewStore(Options{Workers: workers})
		n, _, err := s.Read(context.Background(), bufio.NewReaderSize(f, 1<<20))
		if err != nil || n != lines1M {
			b.Fatalf("Read: %d lines, %v; want %d", n, err, lines1M)
		}
		return s
	}
	_, jqErr := exec.LookPath("jq")
	if jqErr == nil {
		checkAgainstJQ(b, path, read(b, 0))
	}
	for _, bc := range []struct {
		name    string
		workers int
	}{{"sequential", 1}, {"parallel", 0}} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(size)
			b.ReportAllocs()
			defer reportCPU(b, syscall.RUSAGE_SELF)()
			for b.Loop() {
				if s := read(b, bc.workers); s.Len() == 0 {
					b.Fatal("no keys")
				}
			}
		})
	}
	b.Run("jq-sort-uniq", func(b *testing.B) {
		if jqErr != nil {
			b.Skip("jq is not installed")
		}
		b.SetBytes(size)
		defer reportCPU(b, syscall.RUSAGE_CHILDREN)()
		for b.Loop() {
			if out, err := exec.Command("sh", "-c", jqPipeline, "sh", path).Output(); err != nil || len(out) == 0 {
				b.Fatalf("jq pipeline: %v", err)
			}
		}
	})
	b.Run("grep-c", func(b *testing.B) {
		if _, err := exec.LookPath("grep"); err != nil {
			b.Skip("grep is not installed")
		}
		b.SetBytes(size)
		defer reportCPU(b, syscall.RUSAGE_CHILDREN)()
		for b.Loop() {
			if out, err := exec.Command("sh", "-c", grepCount, "sh", path).Output(); err != nil || len(out) == 0 {
				b.Fatalf("grep -c: %v", err)
			}
		}
	})
}

// reportCPU starts counting the CPU time of who (the benchmark's process,
// or the commands it ran), and returns what reports it per op as cpu-ms/op:
// on a machine shared with other work the wall time of a reader on two
// cores and of grep on one are stretched unequally, their CPU time is not.
func reportCPU(b *testing.B, who int) func() {
	cpu := func() time.Duration {
		var ru syscall.Rusage
		if err := syscall.Getrusage(who, &ru); err != nil {
			b.Fatal(err)
		}
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	start := cpu()
	return func() {
		b.ReportMetric(float64(cpu()-start)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
	}
}

// grepCount is the floor: counting the failure lines, reading nothing.
const grepCount = `grep -c 'Reconciler error' "$1"`

// checkAgainstJQ: the store's failure lines per key (every "Reconciler
// error", terminal or not, in order or late) are the pipeline's counts.
func checkAgainstJQ(b *testing.B, path string, s *Store) {
	out, err := exec.Command("sh", "-c", jqPipeline, "sh", path).Output()
	if err != nil {
		b.Fatalf("jq pipeline: %v", err)
	}
	want := map[string]int{}
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		n, id, _ := strings.Cut(strings.TrimSpace(l), " ")
		want[id], _ = strconv.Atoi(n)
	}
	_, keys := s.views("")
	got := map[string]int{}
	for _, k := range keys {
		if k.TotalFailures > 0 {
			got[k.Controller+" "+k.Key] = k.TotalFailures
		}
	}
	if len(got) != len(want) {
		b.Fatalf("%d failing keys, jq counts %d", len(got), len(want))
	}
	for id, n := range want {
		if got[id] != n {
			b.Fatalf("%s: %d failures, jq counts %d", id, got[id], n)
		}
	}
}

// BenchmarkPrefilter compares, on every line of the fixtures, the one-pass
// marker set with the marker-by-marker loop it replaced.
func BenchmarkPrefilter(b *testing.B) {
	var lines [][]byte
	var n int64
	for _, f := range answerFiles(b) {
		raw, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		for _, l := range strings.Split(string(raw), "\n") {
			lines = append(lines, []byte(l))
			n += int64(len(l))
		}
	}
	for _, bc := range []struct {
		name string
		has  func([]byte) bool
	}{{"marker-by-marker", hasMarker}, {"one-pass", builtinMarkers.has}} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(n)
			for b.Loop() {
				for _, l := range lines {
					bc.has(l)
				}
			}
		})
	}
}
