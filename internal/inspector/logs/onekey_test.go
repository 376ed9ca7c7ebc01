package logs

import (
	"strings"
	"testing"
	"time"
)

// oneKeyCase is what reading a log excerpt must give: no key (key ""), or
// exactly one, with its controller (when not ""), failure count and the
// start of its last error.
type oneKeyCase struct {
	controller, key, errPrefix string
	failures                   int
}

// wantOneKey reads log as a saved file read on 2026-01-01 and checks it
// against want: the shape tests of each batch's rules share it, so that a
// rule's cases are its lines and answers, not the same dozen lines of
// checking.
func wantOneKey(t *testing.T, log string, want oneKeyCase) {
	t.Helper()
	s := readLog(t, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), log)
	_, keys := s.views("")
	if want.key == "" {
		if len(keys) != 0 {
			t.Fatalf("read %s %s, want no key", keys[0].Controller, keys[0].Key)
		}
		return
	}
	if len(keys) != 1 {
		t.Fatalf("read %d keys, want 1", len(keys))
	}
	k := keys[0]
	if (want.controller != "" && k.Controller != want.controller) || k.Key != want.key || k.TotalFailures != want.failures ||
		k.LastError == nil || !strings.HasPrefix(k.LastError.Message, want.errPrefix) {
		t.Errorf("read %s %s ×%d %+v, want %s %s ×%d %q…", k.Controller, k.Key, k.TotalFailures, k.LastError, want.controller, want.key, want.failures, want.errPrefix)
	}
}

// wantLineRead parses one line as the generic reader does and checks it is
// read as a failure of controller's key with an error starting errPrefix,
// or, with key "", that it is not read as one (a candidate the log's
// structure must confirm is not read). It returns the record for checks of
// its own.
func wantLineRead(t *testing.T, line, controller, key, errPrefix string) Record {
	t.Helper()
	r, ok := Parse([]byte(line), time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	if key == "" {
		if ok && r.What == ErrorLine && !r.Candidate {
			t.Fatalf("read as %s %s, want not read", r.Controller, r.Key())
		}
		return r
	}
	if !ok {
		t.Fatalf("not read: %q (%s)", line, r.NotRead)
	}
	if r.Controller != controller || r.Key() != key || !strings.HasPrefix(r.Error, errPrefix) || r.What != ErrorLine || r.Candidate {
		t.Errorf("read as %s %s %q (candidate %v), want %s %s %q…", r.Controller, r.Key(), r.Error, r.Candidate, controller, key, errPrefix)
	}
	return r
}
