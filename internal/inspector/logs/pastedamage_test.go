package logs

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// The training excerpts came to their issues through collectors, terminals
// and Markdown, each leaving its mark on every line; a held-out excerpt
// comes through others. TestPasteDamage reads every training excerpt again
// through each such mark (pastedamages_test.go's damages, each seen in a real
// excerpt), one at a time: a key read right must stay right (its count,
// last error and terminal state, as scoreCorpus judges them), and a
// negative must stay without keys.

// trainingDirs are the batches rules may be learnt from: never the held-out.
var trainingDirs = []string{"batch3", "batch4", "batch5", "batch6", "batch7", "batch8", "batch9", "batch10", "batch11", "batch12",
	"batch13", "batch14", "batch15", "batch16", "batch17", "batch18", "batch19", "batch20", "batch21", "batch22", "batch23", "batch24", "batch25", "batch26", "batch27"}

// excerpt is one training excerpt with its answers.
type excerpt struct {
	file string // batch/name
	log  []byte
	want []corpusKey
}

// trainingExcerpts reads every training batch's excerpts and answers.
func trainingExcerpts(t *testing.T) []excerpt {
	var out []excerpt
	for _, dir := range trainingDirs {
		raw, err := os.ReadFile(filepath.Join("testdata", dir, "expected.json"))
		if err != nil {
			t.Fatal(err)
		}
		var want map[string][]corpusKey
		if err := json.Unmarshal(raw, &want); err != nil {
			t.Fatal(err)
		}
		for _, f := range slices.Sorted(mapKeys(want)) {
			log, err := os.ReadFile(filepath.Join("testdata", dir, f))
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, excerpt{file: dir + "/" + f, log: log, want: want[f]})
		}
	}
	return out
}

// mapKeys is an iterator over m's keys.
func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// damageClock is the reading clock, scoreCorpus's.
var damageClock = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// readExcerpt reads log as scoreCorpus does: a saved file.
func readExcerpt(t *testing.T, log []byte) []api.Key {
	s := NewStore(Options{Clock: clocktesting.NewFakePassiveClock(damageClock), Workers: 1})
	if _, _, err := s.Read(context.Background(), bytes.NewReader(log)); err != nil {
		t.Fatal(err)
	}
	_, keys := s.views("")
	return keys
}

// rightKeys are the answers' keys read right in got, by corpusScore.score.
func rightKeys(want []corpusKey, got []api.Key) map[string]bool {
	right := map[string]bool{}
	for _, w := range want {
		var sc corpusScore
		sc.score("", []corpusKey{w}, got)
		if sc.right == 1 {
			right[w.Key] = true
		}
	}
	return right
}

// unnamed counts the keys of got that no answer names.
func unnamed(want []corpusKey, got []api.Key) int {
	var sc corpusScore
	sc.score("", want, got)
	return sc.extra
}

// damageResult is one damage's row of the matrix.
type damageResult struct {
	// affected counts the right keys of excerpts the damage changed,
	// survived those still right; falseKeys the keys read on changed
	// negatives, newExtra the keys no answer names beyond the undamaged
	// read's.
	affected, survived, falseKeys, newExtra int
	lost                                    []string
}

// TestPasteDamage is the matrix: per damage, how many of the keys read
// right survive it. maxLost is the ratchet on keys lost; no damage may make
// a key of a negative.
func TestPasteDamage(t *testing.T) {
	excerpts := trainingExcerpts(t)
	right := make([]map[string]bool, len(excerpts))
	extra := make([]int, len(excerpts))
	total := 0
	for i, e := range excerpts {
		got := readExcerpt(t, e.log)
		right[i], extra[i] = rightKeys(e.want, got), unnamed(e.want, got)
		total += len(right[i])
	}
	// The matrix, in the damages' order, once every damage is read (the
	// subtests run in parallel, their own lines in any order).
	rows := make([]string, len(damages))
	t.Cleanup(func() {
		t.Logf("the matrix: right keys of excerpts each damage changed that stay right (%d right keys in all)", total)
		for _, r := range rows {
			t.Log("  " + r)
		}
	})
	for di, d := range damages {
		t.Run(d.name, func(t *testing.T) {
			t.Parallel()
			var res damageResult
			for i, e := range excerpts {
				if d.skips(e.file) {
					continue
				}
				damaged := d.apply(e.log)
				if bytes.Equal(damaged, e.log) {
					continue
				}
				got := readExcerpt(t, damaged)
				if len(e.want) == 0 {
					// A key the log shows reconciled but never failing
					// (crossplane's debug "Reconciling", batch26's 2608)
					// claims no failure: scoreCorpus's rule.
					for _, g := range got {
						if g.TotalFailures == 0 && g.LastError == nil {
							continue
						}
						res.falseKeys++
						res.lost = append(res.lost, fmt.Sprintf("%s: false key %s %s", e.file, g.Controller, g.Key))
					}
					continue
				}
				now := rightKeys(e.want, got)
				for k := range right[i] {
					res.affected++
					if now[k] {
						res.survived++
						continue
					}
					res.lost = append(res.lost, fmt.Sprintf("%s: %s %s", e.file, k, whyWrong(e.want, k, got)))
				}
				if n := unnamed(e.want, got) - extra[i]; n > 0 {
					res.newExtra += n
					res.lost = append(res.lost, fmt.Sprintf("%s: %d keys no answer names", e.file, n))
				}
				checkPrintable(t, d.name, e.file, got)
			}
			t.Logf("%-22s %3d/%3d affected keys survive (%d right keys in all); %d false keys on negatives, %d new extra keys  [seen: %s]",
				d.name, res.survived, res.affected, total, res.falseKeys, res.newExtra, d.seen)
			rows[di] = fmt.Sprintf("%-18s %3d/%3d  false keys on negatives %d, new extra keys %d", d.name, res.survived, res.affected, res.falseKeys, res.newExtra)
			slices.Sort(res.lost)
			for _, l := range res.lost {
				t.Log("  " + l)
			}
			if res.falseKeys > 0 {
				t.Errorf("%d false keys on negatives, want none", res.falseKeys)
			}
			if lost := res.affected - res.survived; lost > d.maxLost {
				t.Errorf("%d keys lost, want at most %d (the ratchet)", lost, d.maxLost)
			}
			if res.newExtra > d.maxExtra {
				t.Errorf("%d new keys no answer names, want at most %d (the ratchet)", res.newExtra, d.maxExtra)
			}
		})
	}
}

// whyWrong says what a damaged read made of the key k.
func whyWrong(want []corpusKey, k string, got []api.Key) string {
	for _, w := range want {
		if w.Key != k {
			continue
		}
		var sc corpusScore
		sc.score("", []corpusKey{w}, got)
		if len(sc.misses) > 0 {
			m := sc.misses[0]
			return m[strings.Index(m, k)+len(k):]
		}
	}
	return ""
}

// checkPrintable fails when an answer carries a terminal's escape: what a
// colour code wrapped is read without it, and nothing of a line reaches a
// terminal unescaped.
func checkPrintable(t *testing.T, damage, file string, got []api.Key) {
	t.Helper()
	for _, g := range got {
		fields := []string{g.Key, g.Controller, g.LogLine}
		if g.LastError != nil {
			fields = append(fields, g.LastError.Message)
		}
		for _, f := range fields {
			if strings.IndexByte(f, 0x1b) >= 0 {
				t.Errorf("%s: %s: key %s holds an escape: %q", damage, file, g.Key, f)
			}
		}
	}
}
