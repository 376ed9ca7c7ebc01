package logs

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	clocktesting "k8s.io/utils/clock/testing"
)

// TestExplainLines reads every line of a fixture with --explain-lines'
// hook: each line that yields a record or looks like a failure gets its
// reading, with its dialect, key, meaning and why; the others none.
func TestExplainLines(t *testing.T) {
	raw, err := os.ReadFile("testdata/wild/longhorn-2579.log")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	s := NewStore(Options{Clock: clocktesting.NewFakePassiveClock(time.Date(2021, 5, 7, 0, 0, 0, 0, time.UTC)),
		ExplainLines: func(lr LineReading) {
			got = append(got, fmt.Sprintf("%d %s %s %s | %s | %s", lr.Line, lr.Dialect, lr.Controller, lr.Key, lr.Meaning, lr.Why))
		}})
	if _, _, err := s.Read(context.Background(), bytes.NewReader(raw)); err != nil {
		t.Fatal(err)
	}
	want := []string{
		`1 generic (work-queue idiom) longhorn-kubernetes-pod-controller monitoring/grafana-75948bb6fd-6tbs5 | failure, retried after the limiter's delay (estimated) | the work-queue idiom, one key, read by its words, at error or warning level: a failure, and that the key will be retried, "Error syncing"; limiter assumed client-go's default`,
		`3 generic (work-queue idiom) longhorn-kubernetes-pod-controller monitoring/grafana-75948bb6fd-6tbs5 | gave up: forgotten and not requeued, failed until the object changes | the work-queue idiom, one key, read by its words, at error or warning level: a failure, and that the key was given up on, "fail to sync" … "Dropping"; limiter assumed client-go's default`,
		// Read as a bare failure (it opens with it, before the key and its
		// error), in the same second as the Dropping line: the store counts
		// it once, on line 3 (attempt.go), and the reading says so.
		`4 generic (work-queue idiom) longhorn-kubernetes-pod-controller monitoring/grafana-75948bb6fd-6tbs5 | the same failed attempt as line 3's (one cause, one handler's line), counted once, there | the work-queue idiom, one key, read by its words, at error or warning level: "fail to sync" (opens the message, before the key and its error); limiter assumed client-go's default`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("readings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestDialectsListEachOnce: a project (kube-controller-manager: its
// deployment controller's lines and its others') is one dialect in the
// list a user reads, as it is one entry of builtin.yaml.
func TestDialectsListEachOnce(t *testing.T) {
	seen := map[string]bool{}
	for _, d := range Dialects(nil) {
		if seen[d.Name] {
			t.Errorf("dialect %q listed twice", d.Name)
		}
		seen[d.Name] = true
	}
	if !seen["kube-controller-manager"] {
		t.Error("kube-controller-manager is not listed")
	}
}

// TestExplainLinesSaysWhatItTried: a line not read gives the message its
// patterns were tried against, and the true reason: a zerolog-style "ERR"
// that no format reads as a level is not "at info or debug level"; a
// dialect file without controller: reads its lines under its own name, not
// drops them all; one whose line names no key says so; one whose failure
// words a line holds, but no line of it matches, says that first.
func TestExplainLinesSaysWhatItTried(t *testing.T) {
	ds, err := parseDialects("widget.yaml", []byte(`dialects:
- name: widget-operator
  lines:
  - regexp: '^sync of widget (?P<key>\S+) failed: (?P<error>.*)$'
    means: failure
  - regexp: '^widget gave up: (?P<error>.*)$'
    means: failure
`))
	if err != nil {
		t.Fatal(err)
	}
	log := `2026-12-03T10:00:00Z ERR error syncing "ns/a": boom
E1203 10:00:01.000000       1 widget.go:10] sync of widget ns/b failed: boom
E1203 10:00:02.000000       1 widget.go:10] widget gave up: boom
E1203 10:00:03.000000       1 widget.go:10] sync of widget ns/c did not complete: boom
`
	var got []LineReading
	s := NewStore(Options{Clock: clocktesting.NewFakePassiveClock(time.Date(2026, 12, 3, 10, 0, 3, 0, time.UTC)), Dialects: ds,
		ExplainLines: func(lr LineReading) { got = append(got, lr) }})
	if _, _, err := s.Read(context.Background(), strings.NewReader(log)); err != nil {
		t.Fatal(err)
	}
	byLine := map[int]LineReading{}
	for _, lr := range got {
		byLine[lr.Line] = lr
	}
	if lr := byLine[1]; strings.Contains(lr.Why, "info or debug") || lr.Tried == "" || !strings.Contains(lr.Tried, "ERR") {
		t.Errorf("line 1: %+v; want a reason that is not \"info or debug\", and the message tried, ERR in it", lr)
	}
	if lr := byLine[2]; lr.Key != "ns/b" || lr.Controller != "widget" {
		t.Errorf("line 2: %+v; want ns/b read under the file's name, widget", lr)
	}
	if lr := byLine[3]; !strings.Contains(lr.Why, "names no key") || lr.Tried != "widget gave up: boom" {
		t.Errorf("line 3: %+v; want \"names no key\" and the message tried", lr)
	}
	if lr := byLine[4]; !strings.HasPrefix(lr.Why, `holds "sync of widget", a failure line's words of dialect "widget-operator", but its message matches none`) || lr.Tried != "" && !strings.Contains(lr.Why, "given last") {
		t.Errorf("line 4: %+v; want the dialect's near miss first (the message tried given last when known)", lr)
	}
}

// TestExplainLinesShowsWhatAPrefixMatched: a line a dialect's prefix read
// (kube-controller-manager's job controller, `"Unhandled Error"
// err="syncing job: …"`) is explained by the dialect's line, the message
// its patterns were tried against (the err field, client-go's Unhandled
// Error) and the error read after the prefix: not by the prefix alone,
// quoted as if it were the message.
func TestExplainLinesShowsWhatAPrefixMatched(t *testing.T) {
	raw, err := os.ReadFile("testdata/kcm/job-podsecurity-v4.log")
	if err != nil {
		t.Fatal(err)
	}
	var failures []LineReading
	s := NewStore(Options{Clock: clocktesting.NewFakePassiveClock(time.Date(2026, 12, 6, 15, 27, 24, 0, time.UTC)),
		ExplainLines: func(lr LineReading) {
			if strings.HasPrefix(lr.Meaning, "failure") {
				failures = append(failures, lr)
			}
		}})
	if _, _, err := s.Read(context.Background(), bytes.NewReader(raw)); err != nil {
		t.Fatal(err)
	}
	if len(failures) != 5 {
		t.Fatalf("%d failures explained, want the 5 syncs: %+v", len(failures), failures)
	}
	for _, lr := range failures {
		if lr.Why != `the dialect's line "syncing job: …"` ||
			!strings.HasPrefix(lr.Tried, `syncing job: pods "migrate-`) ||
			!strings.HasPrefix(lr.Error, `pods "migrate-`) || !strings.HasSuffix(lr.Tried, ": "+lr.Error) {
			t.Errorf("line %d: why %q, tried %q, error %q; want the dialect's line, the message, the error after its prefix",
				lr.Line, lr.Why, lr.Tried, lr.Error)
		}
	}
}
