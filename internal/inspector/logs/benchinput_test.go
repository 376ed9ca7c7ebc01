package logs

import (
	"bufio"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The 1M-line benchmarks' logs are written from lines a real controller
// wrote once, kept in testdata/bench (TestWriteBenchTemplates; README.md
// there), not from a controller run for each benchmark: a live run on a
// loaded machine logged its lines a second apart, or out of order, or one
// reconcile more, and the log read, and the ratio to grep with it, moved
// from run to run. writeRounds repeats them with what a real log changes
// from one reconcile to the next (the key, the reconcileID, the time), all
// of it from a fixed seed: every run reads the same bytes.

var writeBenchTemplates = flag.Bool("write-bench-templates", false, "TestWriteBenchTemplates: run real controllers and write testdata/bench/*.log")

// benchSeed seeds the reconcileIDs of the benchmarks' logs.
const benchSeed = 42

// benchStart is the time of a benchmark log's first round; each round is
// benchRoundGap after the one before: lines1M lines of BenchmarkRead1M
// (13 a round) span some 21 hours, a day of a controller's log.
var benchStart = time.Date(2026, 12, 6, 0, 0, 0, 0, time.UTC)

const benchRoundGap = time.Second

// TestWriteBenchTemplates writes testdata/bench's logs: v5.log, the lines
// runScenario's real controller writes at V(5) (BenchmarkRead1M's round),
// and mix.log, those of mixTemplates' (BenchmarkRead1MMix's: a success's
// lines, then a failure's).
func TestWriteBenchTemplates(t *testing.T) {
	if !*writeBenchTemplates {
		t.Skip("writes the templates: -write-bench-templates")
	}
	ok, fail := mixTemplates(t)
	for name, lines := range map[string][]string{
		"v5.log":  runScenario(t, formats[0], true, true),
		"mix.log": append(ok, fail...),
	} {
		path := filepath.Join("testdata", "bench", name)
		if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s: %d lines", path, len(lines))
	}
}

// benchTemplate is the lines of testdata/bench/name.
func benchTemplate(t testing.TB, name string) []string {
	raw, err := os.ReadFile(filepath.Join("testdata", "bench", name))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n")
}

// benchTS and benchID are a template's time and reconcileID values.
var (
	benchTS = regexp.MustCompile(`"ts":"([^"]+)"`)
	benchID = regexp.MustCompile(`"reconcileID":"([0-9a-f-]{36})"`)
)

// writeRounds writes lines1M lines to path, round after round until then:
// round i's template lines (round returns them and the name their key has,
// and the key's name in the round), with that name replaced by the round's
// key, each reconcileID by a new random one (uuid v4, as controller-runtime
// draws them) and each time moved by i rounds from benchStart, as far from
// it as from the template's first. It returns path and the file's size.
func writeRounds(t testing.TB, path string, round func(i int) (lines []string, name, key string)) (string, int64) {
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	rng := rand.New(rand.NewPCG(benchSeed, benchSeed))
	var first time.Time
	for n, i := 0, 0; n < lines1M; i++ {
		lines, name, key := round(i)
		var pairs []string
		ids := map[string]bool{}
		for _, l := range lines {
			if m := benchTS.FindStringSubmatch(l); m != nil {
				at, err := time.Parse(time.RFC3339, m[1])
				if err != nil {
					t.Fatalf("template time %q: %v", m[1], err)
				}
				if first.IsZero() {
					first = at
				}
				pairs = append(pairs, m[0], `"ts":"`+benchStart.Add(time.Duration(i)*benchRoundGap+at.Sub(first)).Format(time.RFC3339)+`"`)
			}
			if m := benchID.FindStringSubmatch(l); m != nil && !ids[m[1]] {
				ids[m[1]] = true
				pairs = append(pairs, m[1], uuid4(rng))
			}
		}
		pairs = append(pairs, `"`+name+`"`, `"`+key+`"`)
		r := strings.NewReplacer(pairs...)
		for _, l := range lines {
			if n == lines1M {
				break
			}
			r.WriteString(w, l)
			w.WriteByte('\n')
			n++
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	st, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	return path, st.Size()
}

// uuid4 is a random version 4 UUID drawn from rng.
func uuid4(rng *rand.Rand) string {
	a, b := rng.Uint64(), rng.Uint64()
	a = a&^0xf000 | 0x4000     // version 4
	b = b&^(0xc<<60) | 0x8<<60 // variant 10
	return fmt.Sprintf("%08x-%04x-%04x-%04x-%012x", a>>32, a>>16&0xffff, a&0xffff, b>>48, b&0xffffffffffff)
}
