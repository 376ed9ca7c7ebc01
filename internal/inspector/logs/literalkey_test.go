package logs

import (
	"strings"
	"testing"
)

// TestLiteralKey reads a key printed as a record (literalkey.go).
func TestLiteralKey(t *testing.T) {
	for _, tt := range []struct {
		s, key string
		ok     bool
	}{
		{"ExecutionScope{ resource id: ResourceID{name='basic-example', namespace='default'}, version: 1}", "default/basic-example", true},
		{"ResourceID{name='keycloak', namespace='***'}", "***/keycloak", true},
		{"sync {Namespace:team-a Name:web-0} failed", "team-a/web-0", true},
		{"{'name': 'x', 'namespace': ''}", "/x", true},
		{"Pod{name='a', namespace='n'} and Pod{name='b', namespace='n'}", "", false},
		{"Pod{name='a', namespace='n'} again Pod{name='a', namespace='n'}", "n/a", true},
		{"{name: a}", "", false},                           // no namespace field: not a key's record
		{"{Namespace: Name:x}", "", false},                 // the next field's name is no value
		{"ConfigMap{data={name=a, namespace=b", "", false}, // never closes
	} {
		key, _, _, ok := literalKey(tt.s)
		if key != tt.key || ok != tt.ok {
			t.Errorf("literalKey(%q) = %q, %v; want %q, %v", tt.s, key, ok, tt.key, tt.ok)
		}
	}
}

// TestOutsideRecords: a colon inside a printed record's braces is its
// field's, not the error's.
func TestOutsideRecords(t *testing.T) {
	for _, tt := range []struct {
		msg, err string
	}{
		{"failed on ns/x: boom", "boom"},
		{" ExecutionScope{ id: R{name='x'}, v: 1} - pending.: pkg.FooException: bad", "pkg.FooException: bad"},
		{" Scope{ id: x} - no error here", "MSG"},
		{" open{ id: x never closes: y", "x never closes: y"},
	} {
		got := errorAfter(tt.msg, 0)
		want := strings.ReplaceAll(tt.err, "MSG", tt.msg)
		if got != want {
			t.Errorf("errorAfter(%q) = %q, want %q", tt.msg, got, want)
		}
	}
}
