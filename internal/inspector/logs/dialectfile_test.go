package logs

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// widgetDialect is an in-house operator's dialect, as its team writes it.
const widgetDialect = `dialects:
- name: widget-operator
  controller: widget
  limiter: exponential 1s..5m
  lines:
  - regexp: '^sync of widget (?P<key>\S+) failed, retry #(?P<count>\d+): (?P<error>.*)$'
    means: failure
  - regexp: '^gave up on widget (?P<key>\S+): (?P<error>.*)$'
    means: dropped
  - regexp: '^widget synced key=(?P<key>\S+)$'
    means: success
`

// widgetLog is that operator's log: no built-in dialect, and not the
// generic reader, reads a line of it (info level, its own words).
const widgetLog = `2026-12-03T10:00:00Z INFO sync of widget team-a/w1 failed, retry #3: quota exceeded
2026-12-03T10:00:08Z INFO sync of widget team-a/w1 failed, retry #4: quota exceeded
2026-12-03T10:00:09Z INFO widget synced key=team-a/w2
2026-12-03T10:00:10Z INFO gave up on widget team-a/w3: bad spec
`

// A dialect file reads what nothing else does: keys, stated counts, errors,
// the drop, the project's limiter.
func TestDialectFile(t *testing.T) {
	ds, err := parseDialects("widget.yaml", []byte(widgetDialect))
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 12, 3, 10, 0, 30, 0, time.UTC)
	read := func(ds []Dialect) *Store {
		s := NewStore(Options{Clock: clocktesting.NewFakePassiveClock(now), Dialects: ds})
		if _, _, err := s.Read(context.Background(), strings.NewReader(widgetLog)); err != nil {
			t.Fatal(err)
		}
		return s
	}
	if s := read(nil); s.Len() != 0 {
		t.Fatalf("without the file, %d keys read; the test needs a log nothing else reads", s.Len())
	}
	s := read(ds)
	k, err := s.Key("widget", "team-a/w1")
	if err != nil {
		t.Fatal(err)
	}
	if k.Failures != 4 || k.State != api.StateBackoff || k.LastError.Message != "quota exceeded" || k.Delay.Duration != 8*time.Second {
		t.Errorf("w1: %d failures, %s, %q, delay %v; want 4 (stated), backoff, quota exceeded, 8s (1s·2^3)", k.Failures, k.State, k.LastError.Message, k.Delay.Duration)
	}
	if k, err := s.Key("widget", "team-a/w3"); err != nil || k.State != api.StateFailed || k.LastReset == nil || k.LastReset.By != api.ResetGaveUp {
		t.Errorf("w3: %+v, %v; want failed by a give-up", k, err)
	}
	if lr := s.LogRead(); lr.Recognised["widget-operator (zap console)"] != 4 {
		t.Errorf("recognised %v; want widget-operator's 4 lines", lr.Recognised)
	}
}

// A malformed file is refused with its file, line and field.
func TestDialectFileRefused(t *testing.T) {
	for _, tt := range []struct {
		name, file string
		line       int
		field      string
	}{
		{"bad regexp", "dialects:\n- name: w\n  lines:\n  - regexp: '(?P<key>['\n    means: failure\n", 4, "regexp"},
		{"unknown group", "dialects:\n- name: w\n  lines:\n  - regexp: '(?P<who>x)'\n    means: failure\n", 4, "regexp"},
		{"unknown field", "dialects:\n- name: w\n  colour: red\n  lines:\n  - text: x\n    means: failure\n", 3, "dialects[].colour"},
		{"bad meaning", "dialects:\n- name: w\n  lines:\n  - text: x\n    means: broken\n", 5, "means"},
		{"bad limiter", "dialects:\n- name: w\n  limiter: bucket 10/100\n  lines:\n  - text: x\n    means: failure\n", 3, "limiter"},
		{"no name", "dialects:\n- lines:\n  - text: x\n    means: failure\n", 2, "name"},
		{"not YAML", "dialects: [\n", 0, "(yaml)"}, // the parser's message says its line
		{"empty", "", 1, "dialects"},
	} {
		_, err := parseDialects("d.yaml", []byte(tt.file))
		var de *DialectError
		if !errors.As(err, &de) || de.Line != tt.line || de.Field != tt.field || !strings.HasPrefix(err.Error(), "d.yaml:") {
			t.Errorf("%s: %v; want d.yaml line %d, field %s", tt.name, err, tt.line, tt.field)
		}
	}
}
