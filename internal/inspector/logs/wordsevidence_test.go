package logs

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
	"time"

	clocktesting "k8s.io/utils/clock/testing"
)

// TestWordsEvidenceSaysTheLevel: a line read by its words says how it was
// logged. kubevirt's "reenqueuing" is an info line whose error is in its
// reason field, and sealed-secrets' Go log lines have no level at all;
// describe and --explain-lines said "at error or warning level" of both.
func TestWordsEvidenceSaysTheLevel(t *testing.T) {
	for _, tt := range []struct{ file, want string }{
		{"testdata/batch3/72-kubevirt-json-reenqueuing-two-keys.log", "its words, at info level, with an error field"},
		{"testdata/batch3/70-sealed-secrets-stdlog-giving-up-terminal.log", "its words, in a format that shows no level"},
	} {
		raw, err := os.ReadFile(tt.file)
		if err != nil {
			t.Fatal(err)
		}
		var why []string
		s := NewStore(Options{Clock: clocktesting.NewFakePassiveClock(time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)),
			ExplainLines: func(lr LineReading) {
				if lr.Key != "" {
					why = append(why, lr.Why)
				}
			}})
		if _, _, err := s.Read(context.Background(), bytes.NewReader(raw)); err != nil {
			t.Fatal(err)
		}
		if len(why) == 0 {
			t.Fatalf("%s: no line read with a key", tt.file)
		}
		for _, w := range why {
			if strings.Contains(w, "its words") && !strings.Contains(w, tt.want) {
				t.Errorf("%s: %q; want %q", tt.file, w, tt.want)
			}
		}
		if !strings.Contains(strings.Join(why, "\n"), tt.want) {
			t.Errorf("%s: no reading says %q:\n%s", tt.file, tt.want, strings.Join(why, "\n"))
		}
	}
}

// TestErrorWithoutTrailingRetry: the retry words a line ends with are the
// handler's, not the error's (tidb-operator's line of batch3/81, verbatim
// after klog's header); words after the error, or inside it, stay.
func TestErrorWithoutTrailingRetry(t *testing.T) {
	for _, tt := range []struct{ msg, err, want string }{
		{"TidbCluster: tidb30001/demo, sync failed TidbCluster: tidb30001/demo's pd status sync failed,can't scale out now, requeuing",
			"TidbCluster: tidb30001/demo's pd status sync failed,can't scale out now, requeuing",
			"TidbCluster: tidb30001/demo's pd status sync failed,can't scale out now"},
		// The retry words before the error are not cut from it.
		{`Requeuing "ns/x" due to error: boom`, "boom", "boom"},
		// A sentence of the error's own, not a clause (kopf, batch5).
		{"Handler 'create_fn' failed with an exception. Will retry.", "Handler 'create_fn' failed with an exception. Will retry.",
			"Handler 'create_fn' failed with an exception. Will retry."},
		// Words after the retry phrase: not a trailing retry.
		{"sync of ns/x failed: will retry after the lock is free", "will retry after the lock is free", "will retry after the lock is free"},
	} {
		if got := withoutTrailingRetry(tt.err, tt.msg, retryPhrase.FindStringIndex(tt.msg)); got != tt.want {
			t.Errorf("%q: error %q; want %q", tt.msg, got, tt.want)
		}
	}
}

// TestErrorWithoutGiveUpReason: a drop line's reason after its error is
// the handler's (volcano's line of batch3/78, verbatim after klog's
// header: "…: %v because max retries has reached"); an error that says
// why on its own terms stays whole.
func TestErrorWithoutGiveUpReason(t *testing.T) {
	for _, tt := range []struct{ err, want string }{
		{"failed to create 2 pods of 4 because max retries has reached", "failed to create 2 pods of 4"},
		{"sync failed, since maximum retries exceeded", "sync failed"},
		{"connection refused because the server is down", "connection refused because the server is down"},
		{"because max retries has reached", "because max retries has reached"},
	} {
		if got := withoutGiveUpReason(tt.err); got != tt.want {
			t.Errorf("%q: %q; want %q", tt.err, got, tt.want)
		}
	}
}
