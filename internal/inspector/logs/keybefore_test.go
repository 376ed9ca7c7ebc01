package logs

import (
	"context"
	"strings"
	"testing"
	"time"

	clocktesting "k8s.io/utils/clock/testing"
)

// readKeyBefore reads log (trimmed lines) into a fresh store, as of 10:05.
func readKeyBefore(t *testing.T, log string) *Store {
	t.Helper()
	t0 := time.Date(2026, 12, 6, 10, 5, 0, 0, time.UTC)
	s := NewStore(Options{Clock: clocktesting.NewFakePassiveClock(t0)})
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimSpace(log), "\n") {
		b.WriteString(strings.TrimSpace(l) + "\n")
	}
	if _, _, err := s.Read(context.Background(), strings.NewReader(b.String())); err != nil {
		t.Fatal(err)
	}
	return s
}

// TestKeyBefore: a "Reconciler error" whose logger dropped the request
// takes the key of the reconciler's own line just before it, which logged
// the same error; its controller is that field's Kind in lower case.
func TestKeyBefore(t *testing.T) {
	for name, log := range map[string]string{
		"console with separators, times within a second": `
2026-12-06 10:00:00.100 | ERROR | op | Failed to update Widget status | {"Widget": "ns/w1", "error": "conflict: modified"}
2026-12-06 10:00:00.101 | ERROR | op | Reconciler error | {"error": "conflict: modified"}`,
		"console with separators, times placeholders, a blank line between": `
YYYY-MM-DD HH:MM:SS.SSS | ERROR | op | Failed to update Widget status | {"Widget": "ns/w1", "error": "conflict: modified"}

YYYY-MM-DD HH:MM:SS.SSS | ERROR | op | Reconciler error | {"error": "conflict: modified"}`,
	} {
		s := readKeyBefore(t, log)
		k, err := s.Key("widget", "ns/w1")
		if err != nil {
			t.Errorf("%s: %v; controllers %v", name, err, s.names())
			continue
		}
		if k.TotalFailures != 1 || k.LastError == nil || k.LastError.Message != "conflict: modified" {
			t.Errorf("%s: %d failures, last error %+v; want 1, the line's", name, k.TotalFailures, k.LastError)
		}
		if !strings.Contains(k.LogEvidence, "just before it") {
			t.Errorf("%s: evidence %q; want it to name the line before", name, k.LogEvidence)
		}
	}
}

// TestKeyBeforeNotGuessed: no key where the line before is not surely the
// attempt's: another line between, another error, another logger, two
// keys on it, or a second between them.
func TestKeyBeforeNotGuessed(t *testing.T) {
	const failure = `2026-12-06 10:00:00.500 | ERROR | op | Reconciler error | {"error": "conflict: modified"}`
	for name, before := range map[string]string{
		"a line between": `2026-12-06 10:00:00.100 | ERROR | op | Failed to update Widget status | {"Widget": "ns/w1", "error": "conflict: modified"}
2026-12-06 10:00:00.200 | INFO | op | Reconciling | {"Widget": "ns/w2"}`,
		"another error":  `2026-12-06 10:00:00.100 | ERROR | op | Failed to update Widget status | {"Widget": "ns/w1", "error": "conflict: other"}`,
		"another logger": `2026-12-06 10:00:00.100 | ERROR | other | Failed to update Widget status | {"Widget": "ns/w1", "error": "conflict: modified"}`,
		"two keys":       `2026-12-06 10:00:00.100 | ERROR | op | Failed to update Widget status | {"Widget": "ns/w1", "Gadget": "ns/g1", "error": "conflict: modified"}`,
		"seconds apart":  `2026-12-06 09:59:58.100 | ERROR | op | Failed to update Widget status | {"Widget": "ns/w1", "error": "conflict: modified"}`,
	} {
		s := readKeyBefore(t, before+"\n"+failure)
		if n := s.Len(); n != 0 {
			t.Errorf("%s: %d keys (controllers %v); want none", name, n, s.names())
		}
	}
}
