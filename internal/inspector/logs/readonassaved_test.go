package logs

import (
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"
)

// TestReadOnAsSaved: a saved log read on as it grows (top --for's log)
// applies each appended line as it comes — a saved read holds its records
// to the read's end, which a growing file never reaches — and is judged at
// its newest line, as a saved log is, however fresh that line: a key is
// not "unknown" for going quiet past its retry while the log says nothing
// after it.
func TestReadOnAsSaved(t *testing.T) {
	line := func(at time.Time, name string) string {
		return fmt.Sprintf(`{"level":"error","ts":%q,"msg":"Reconciler error","controller":"widget","namespace":"default","name":%q,"reconcileID":"a","error":"boom"}`+"\n",
			at.UTC().Format(time.RFC3339Nano), name)
	}
	t0 := time.Now().Add(-time.Second)
	s := NewStore(Options{})
	if _, _, err := s.Read(context.Background(), strings.NewReader(line(t0, "w1"))); err != nil {
		t.Fatal(err)
	}
	s.ReadOnAsSaved()
	pr, pw := io.Pipe()
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _, _ = s.Read(context.Background(), pr)
	}()
	t1 := t0.Add(500 * time.Millisecond)
	if _, err := io.WriteString(pw, line(t1, "w2")); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for s.Stats().Records != 2 {
		if time.Now().After(deadline) {
			t.Fatalf("records %d 10s after a line was appended, want 2: held to the end of a read that never ends", s.Stats().Records)
		}
		time.Sleep(time.Millisecond)
	}
	if got := s.Stats().EndsAt; !got.Equal(t1) {
		t.Errorf("judged at %v, want the newest line's time %v (as a saved log)", got, t1)
	}
	pw.Close()
	<-done
}
