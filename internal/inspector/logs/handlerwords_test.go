package logs

import "testing"

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
