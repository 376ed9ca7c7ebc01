package cli

import (
	"bytes"
	"compress/gzip"
	"context"
	"strings"
	"testing"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/logs"
)

// TestFollowedReadStoppedOnScreen: top follows a pipe whose gzip is cut
// off; the read stops short. It used to say so only on stderr, hidden under
// top's screen until it quit: the store now says why and what to do
// (LogRead.Stopped), which top's header shows.
func TestFollowedReadStoppedOnScreen(t *testing.T) {
	var zipped bytes.Buffer
	zw := gzip.NewWriter(&zipped)
	for range 2000 {
		zw.Write([]byte(`{"level":"error","ts":"2026-12-06T10:09:31Z","msg":"Reconciler error","controller":"widget","namespace":"w","name":"c1","reconcileID":"a1","error":"eu region unavailable"}` + "\n"))
	}
	zw.Close()
	cut := zipped.Bytes()[:zipped.Len()/2]
	var errOut bytes.Buffer
	store := logs.NewStore(logs.Options{Live: true})
	fr := &fileRead{name: "stdin", in: bytes.NewReader(cut), live: true, follow: true, errOut: &errOut, store: store}
	fr.read(context.Background())
	got := store.LogRead().Stopped
	if !strings.Contains(got, "read stopped") || !strings.Contains(got, "give the whole log again") {
		t.Errorf("LogRead.Stopped = %q; want why the read stopped and what to do", got)
	}
	if !store.LogRead().Ended {
		t.Error("a stopped read is an ended input too")
	}
	if errOut.Len() == 0 {
		t.Error("nothing on stderr: the whole error is said there too")
	}
}
