package logs

import "testing"

// TestRecordShape: the one reading of a record's start, on the first
// bytes of what real loggers write (each case names the logger), and on
// what opens none: a wrapped piece, a stack trace, syslog's month.
func TestRecordShape(t *testing.T) {
	for _, tt := range []struct {
		line      string
		rec, join bool // recordShape, joinStart
	}{
		// klog v2's header, "Lmmdd hh:mm:ss.uuuuuu threadid file:line]".
		{`E0102 15:04:05.123456       1 controller.go:326] "Reconciler error" err="boom"`, true, true},
		{`I1130 08:24:45.000000       1 leaderelection.go:258] successfully acquired lease`, true, true},
		// Go's log with log.LstdFlags.
		{`2009/11/10 23:00:00 failed to sync widgets/w1: boom`, true, true},
		// zap's ISO 8601 console encoder, and RFC 3339 (slog, logr's zapr).
		{"2021-03-04T05:06:07.123Z\tERROR\tReconciler error\t{\"controller\": \"widget\"}", true, true},
		// zap's JSON encoder; its console encoder with epoch time.
		{`{"level":"error","ts":1614834367.12,"msg":"Reconciler error"}`, true, true},
		{"1614834367.1234\terror\tReconciler error", true, true},
		// logrus' TextFormatter (to a file), and to a terminal.
		{`time="2021-03-04T05:06:07Z" level=error msg="error syncing" key=default/w1`, true, true},
		{`ERRO[0001] error syncing default/w1: boom`, true, true},
		// go-kit's logfmt.
		{`level=error ts=2021-03-04T05:06:07Z msg="sync failed"`, true, true},
		{`ts=1`, true, true},
		// kubectl logs --prefix, a bracketed time: the width wrap's starts
		// only (a zap console piece cut in its object may open with '[0').
		{`[pod/ctrl-0/manager] E0102 15:04:05.123456 1 c.go:1] x`, false, true},
		{`[2021-03-04 05:06:07] ERROR sync failed`, false, true},
		{`[0,1,2],"error":"boom"}`, false, true},
		// No logger writes a date with two separators.
		{`2021-03/04 05:06:07 failed`, false, false},
		// Shorter than any record: a piece cut at the terminal's edge.
		{`{"`, false, false},
		{`ts=`, false, false},
		{`[1]`, false, false},
		// Pieces and multi-line messages.
		{`nitoring-stack", "error": "boom"}`, false, false},
		{"\tat io.example.Main.run(Main.java:42)", false, false},
		{`goroutine 1 [running]:`, false, false},
		{`    reconcileID: 7f9c`, false, false},
		{`Info: 1234`, false, false},
		{`12345 workers`, false, false},
		// syslog (RFC 3164): its month is no shape here; a collector's
		// prefix is read by prefixedStart.
		{`Jan  2 15:04:05 host ctrl[123]: error syncing`, false, false},
		{``, false, false},
	} {
		if got := recordShape([]byte(tt.line)); got != tt.rec {
			t.Errorf("recordShape(%q) = %v, want %v", tt.line, got, tt.rec)
		}
		if got := joinStart([]byte(tt.line)); got != tt.join {
			t.Errorf("joinStart(%q) = %v, want %v", tt.line, got, tt.join)
		}
	}
}
