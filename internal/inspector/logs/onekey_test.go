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
