package logs

import (
	"errors"
	"strings"
	"testing"
)

// A field of the wrong type, a field given twice and a second document are
// refused with the file, the line and the field, saying what was wanted:
// they were read (an empty regexp matched every message, so an info
// "Starting Controller" line became a backoff key), or dropped unsaid.
func TestDialectFileWrongTypesRefused(t *testing.T) {
	const line = "  lines:\n  - regexp: '^x (?P<key>\\S+)'\n    means: failure\n"
	for _, tt := range []struct {
		name, file string
		line       int
		field      string
		says       string
	}{
		{"regexp a mapping", "dialects:\n- name: w\n  lines:\n  - regexp: {a: 1}\n    means: failure\n", 4, "regexp", "want a string, not a mapping"},
		{"regexp empty", "dialects:\n- name: w\n  lines:\n  - regexp: \"\"\n    means: failure\n", 4, "regexp", "would match every message"},
		{"regexp bare", "dialects:\n- name: w\n  lines:\n  - regexp:\n    means: failure\n", 4, "regexp", "would match every message"},
		{"text a list", "dialects:\n- name: w\n  lines:\n  - text: [a]\n    means: failure\n", 4, "text", "not a list"},
		{"controller a mapping", "dialects:\n- name: w\n  controller: {x: 1}\n" + line, 3, "controller", "want a string, not a mapping"},
		{"name a mapping", "dialects:\n- name: {x: 1}\n" + line, 2, "name", "want a string"},
		{"means bare", "dialects:\n- name: w\n  lines:\n  - text: x\n    means:\n", 5, "means", "empty"},
		{"name twice", "dialects:\n- name: w\n  name: v\n" + line, 3, "name", "given twice (first at line 2)"},
		{"means twice", "dialects:\n- name: w\n  lines:\n  - text: x\n    means: failure\n    means: success\n", 6, "means", "given twice (first at line 5)"},
		{"dialects twice", "dialects:\n- name: w\n" + line + "dialects:\n- name: v\n" + line, 6, "dialects", "given twice (first at line 2)"},
		{"a second document", "dialects:\n- name: w\n" + line + "---\ndialects:\n- name: v\n" + line, 7, "(yaml)", "a second YAML document"},
	} {
		_, err := parseDialects("d.yaml", []byte(tt.file))
		var de *DialectError
		if !errors.As(err, &de) || de.Line != tt.line || de.Field != tt.field || !strings.Contains(de.Err, tt.says) {
			t.Errorf("%s: %v; want d.yaml:%d: %s: …%s…", tt.name, err, tt.line, tt.field, tt.says)
		}
	}
	// The same file with one of each reads.
	if _, err := parseDialects("d.yaml", []byte("dialects:\n- name: w\n  controller: c\n"+line)); err != nil {
		t.Errorf("a well-formed file: %v", err)
	}
}
