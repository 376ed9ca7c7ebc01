package logs

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
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

var updateAnswers = flag.Bool("update-answers", false, "rewrite testdata/golden/answers.golden")

// answersRef is the reading clock of the golden: a year-less klog header
// is dated by it, so one fixed reference keeps the golden stable.
var answersRef = time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)

// answerFiles are every log of testdata the golden reads: the wild
// excerpts, the logrus output, and one line per message of every dialect
// (testdata/golden/messages.log, written from the table as it was before
// it became data).
func answerFiles(t testing.TB) []string {
	var files []string
	for _, g := range []string{"testdata/wild/*.log", "testdata/logrus/*.log", "testdata/golden/*.log"} {
		m, err := filepath.Glob(g)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 70 {
		t.Fatalf("%d logs, want every fixture", len(files))
	}
	return files
}

// answers is every answer the reader gives on raw: each record Parse
// reads, each line --explain-lines reports, and what Store.Read makes of
// the whole log (its controllers and their limiters, each key in detail,
// the diagnostics and the stats), read with opts.
func answers(t testing.TB, raw []byte, opts Options) string {
	var b strings.Builder
	for _, r := range readRecordsWith(raw, parseRef{at: answersRef, dialects: opts.Dialects}) {
		fmt.Fprintf(&b, "record %s\n", goldenFormat(r))
	}
	opts.Clock = clocktesting.NewFakePassiveClock(answersRef)
	// --explain-lines reads line by line; the answers are read as opts
	// say (Workers).
	explained := opts
	explained.ExplainLines = func(lr LineReading) { fmt.Fprintf(&b, "reading %+v\n", lr) }
	if _, _, err := NewStore(explained).Read(context.Background(), bytes.NewReader(raw)); err != nil {
		t.Fatal(err)
	}
	s := NewStore(opts)
	n, last, err := s.Read(context.Background(), bytes.NewReader(raw))
	fmt.Fprintf(&b, "read %d lines, last %v, err %v\n", n, last, err)
	dump := func(what string, v any) {
		j, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%s %s\n", what, j)
	}
	cl := s.Controllers()
	dump("controllers", cl)
	for _, c := range cl.Controllers {
		_, keys := s.views(c.Name)
		slices.SortFunc(keys, func(a, b api.Key) int { return strings.Compare(a.Key, b.Key) })
		for _, k := range keys {
			d, err := s.Key(c.Name, k.Key)
			if err != nil {
				t.Fatal(err)
			}
			dump("key", d)
		}
	}
	fmt.Fprintf(&b, "stats %+v\n", s.Stats())
	return b.String()
}

// readRecordsWith is readRecords with a parseRef (a dialect file's
// dialects).
func readRecordsWith(raw []byte, ref parseRef) []Record {
	var out []Record
	var j joiner
	emit := func(line []byte) {
		if r, out2 := parse(line, ref); out2 == outRecord {
			out = append(out, r)
		}
	}
	for _, line := range bytes.SplitAfter(raw, []byte("\n")) {
		if len(line) > 0 {
			j.feed(line, emit)
		}
	}
	j.flush(emit)
	return out
}

// allAnswers is answers for every fixture, and for the widget log through
// its dialect file.
func allAnswers(t testing.TB, opts Options) string {
	var b strings.Builder
	for _, f := range answerFiles(t) {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "=== %s\n%s", filepath.ToSlash(f), answers(t, raw, opts))
	}
	ds, err := parseDialects("widget.yaml", []byte(widgetDialect))
	if err != nil {
		t.Fatal(err)
	}
	o := opts
	o.Dialects = ds
	fmt.Fprintf(&b, "=== widget (dialect file)\n%s", answers(t, []byte(widgetLog), o))
	return b.String()
}

// TestAnswersGolden pins every answer the reader gives on every fixture:
// a change to how dialects are declared, or to how a log is read (in
// parallel), must leave it byte-identical. -update-answers rewrites it,
// for a change that means to change an answer.
func TestAnswersGolden(t *testing.T) {
	got := allAnswers(t, Options{})
	const file = "testdata/golden/answers.golden"
	if *updateAnswers {
		if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := range min(len(gl), len(wl)) {
			if gl[i] != wl[i] {
				t.Fatalf("answers differ from %s at line %d:\n got  %s\n want %s", file, i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("answers differ from %s: %d lines, want %d", file, len(gl), len(wl))
	}
}
