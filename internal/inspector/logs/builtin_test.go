package logs

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// TestBuiltinDialectsLoad: the built-in dialects the binary ships load with
// no error, by the loader of --dialect FILE, and each is whole: it reads
// lines, every line is reachable past the markers' shortcut, and a line
// that states a delay says where.
func TestBuiltinDialectsLoad(t *testing.T) {
	ds, err := parseDialects(builtinFile, builtinYAML, true)
	if err != nil {
		t.Fatalf("builtin.yaml: %v", err)
	}
	if e, a := len(families), len(ds); e != a || a < 10 {
		t.Fatalf("%d dialects, %d families; want the same, at least 10", a, e)
	}
	for _, d := range ds {
		if len(d.Lines) == 0 || len(d.Markers) == 0 {
			t.Errorf("%s: %d lines, %d markers; want some of each", d.Name, len(d.Lines), len(d.Markers))
		}
		for _, l := range d.Lines {
			// A lower-case sync "…" is reached through "Unhandled Error",
			// its message then the error.
			if !hasMarker([]byte(l.Text)) && !contains(d.Markers, unhandledError) {
				t.Errorf("%s: %q holds no marker: its lines would be skipped unread", d.Name, l.Text)
			}
			if l.Means == RequeueAfterLine && l.DurationAfter == "" && !l.RequeueAfterField {
				t.Errorf("%s: %q means requeue-after but says no delay", d.Name, l.Text)
			}
		}
	}
}

// TestDialectFileRefusesBuiltinFields: a file may not use the fields only
// built-ins are read with; it is refused with its line and field.
func TestDialectFileRefusesBuiltinFields(t *testing.T) {
	for _, tt := range []struct{ file, field string }{
		{"dialects:\n- name: w\n  key-field: key\n  lines:\n  - {text: x, means: failure}\n", "key-field"},
		{"dialects:\n- name: w\n  lines:\n  - {text: x, means: failure, key-sep: ': '}\n", "key-sep"},
		{"dialects:\n- name: w\n  lines:\n  - {text: x, means: start}\n", "means"},
		{"dialects:\n- name: w\n  limiter:\n  - {limiter: default}\n  lines:\n  - {text: x, means: failure}\n", "limiter"},
	} {
		_, err := parseDialects("d.yaml", []byte(tt.file), false)
		var de *DialectError
		if !errors.As(err, &de) || de.Field != tt.field || de.Line < 3 {
			t.Errorf("%q: err = %v, want field %s refused at its line", tt.file, err, tt.field)
		}
	}
	// And the built-in file's own text parses as a file only with them.
	if _, err := parseDialects(builtinFile, builtinYAML, false); err == nil || !strings.Contains(err.Error(), "built-in") {
		t.Errorf("builtin.yaml as a dialect file: err = %v, want its built-in fields refused", err)
	}
	if !bytes.Contains(builtinYAML, []byte("name: controller-runtime")) {
		t.Error("builtin.yaml has no controller-runtime")
	}
}
