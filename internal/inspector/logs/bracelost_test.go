package logs

import (
	"strings"
	"testing"
	"time"
)

// TestJSONBraceLost: a zap JSON record whose opening "{" the paste lost is
// read as the record it is. Batch 9's 908, verbatim
// (https://github.com/kubev2v/forklift/issues/4466), with its ts written
// with a space and no zone; the member lines of a pretty-printed record,
// which open the same way one member each, are not read as records.
func TestJSONBraceLost(t *testing.T) {
	forklift := strings.TrimRight(readTestdata(t, "testdata/batch9/908-forklift-json-reconciler-error-recovered-panic-brace-lost.log"), "\n")
	r := wantLineRead(t, forklift, "plan", "konveyor-forklift/vm-migration-plan", "panic: runtime error: invalid memory address")
	if want := time.Date(2026, 1, 25, 3, 44, 53, 222e6, time.UTC); !r.At.Equal(want) {
		t.Errorf("read at %v, want %v", r.At, want)
	}
	for _, line := range []string{
		`"msg": "Reconciler error",`,
		`  "request": "default/x",`,
		`"error": "Operation cannot be fulfilled on x \"y\": the object has been modified"`,
		`"level":"error"`,
	} {
		if braceLost([]byte(strings.TrimSpace(line))) {
			t.Errorf("braceLost(%q), want a member line, not a record", line)
		}
	}
}
