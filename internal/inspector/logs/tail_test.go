package logs

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// fastTail looks at the file every millisecond, and reads a last line with
// no newline once the file is a minute old (tests set its time back).
var fastTail = TailOptions{Poll: time.Millisecond, Settle: time.Minute}

// tailLines follows path from off, and gives each line it reads (without
// its newline) on the channel, until the test ends.
func tailLines(t *testing.T, path string, off int64) (*Tail, <-chan string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	tail, err := NewTail(ctx, path, f, off, fastTail)
	if err != nil {
		t.Fatal(err)
	}
	lines := make(chan string, 100)
	done := make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(tail)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Error("the tail did not end within 10s of its context")
		}
		tail.Close()
	})
	return tail, lines
}

// want waits for the lines, in order, each within 10s.
func want(t *testing.T, lines <-chan string, ws ...string) {
	t.Helper()
	for _, w := range ws {
		select {
		case got := <-lines:
			if got != w {
				t.Fatalf("line %q, want %q", got, w)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("no line %q within 10s", w)
		}
	}
}

// none checks no line is waiting: called after a line written later was
// read, so that any before it would have been.
func none(t *testing.T, lines <-chan string) {
	t.Helper()
	select {
	case got := <-lines:
		t.Fatalf("unexpected line %q", got)
	default:
	}
}

func appendTo(t *testing.T, path, s string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(s); err != nil {
		t.Fatal(err)
	}
}

// A followed file: what is appended is read as it is appended, a line
// written in two pieces is one line, and a file shortened (copytruncate)
// or replaced under its name (rotated) is read again from its start.
func TestTailFollowsAGrowingFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "app.log")
	appendTo(t, path, "one\ntwo\n")
	tail, lines := tailLines(t, path, 4) // "one\n" was read before
	want(t, lines, "two")

	appendTo(t, path, "three\n")
	want(t, lines, "three")
	appendTo(t, path, "fo") // a writer in the middle of a line
	appendTo(t, path, "ur\n")
	want(t, lines, "four")

	// copytruncate: the file is cut to nothing, then written again.
	if err := os.Truncate(path, 0); err != nil {
		t.Fatal(err)
	}
	waitRestarts(t, tail, 1)
	appendTo(t, path, "five\n")
	want(t, lines, "five")

	// Rotation: renamed; the old file still written a little (its writer
	// has not reopened yet), then a new one created under the name.
	if err := os.Rename(path, path+".1"); err != nil {
		t.Fatal(err)
	}
	appendTo(t, path+".1", "six\n")
	want(t, lines, "six")
	appendTo(t, path, "seven\n")
	want(t, lines, "seven")
	if tail.Restarts() != 2 {
		t.Errorf("restarts = %d, want 2 (one truncation, one rotation)", tail.Restarts())
	}
	appendTo(t, path, "eight\n")
	want(t, lines, "eight")
	none(t, lines)
}

// waitRestarts waits until the tail has restarted n times.
func waitRestarts(t *testing.T, tail *Tail, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for tail.Restarts() < n {
		if time.Now().After(deadline) {
			t.Fatalf("restarts = %d after 10s, want %d", tail.Restarts(), n)
		}
		time.Sleep(time.Millisecond)
	}
}

// A last line with no newline is read once the file is left alone
// (Settle), and a rotation ends the open line of the old file.
func TestTailLastLineWithoutNewline(t *testing.T) {
	path := filepath.Join(t.TempDir(), "app.log")
	appendTo(t, path, "one\ntwo")
	// Just written: a writer may be in the middle of "two".
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if end, err := SettledEnd(f, time.Minute, time.Now()); err != nil || end != 4 {
		t.Fatalf("SettledEnd of a fresh file = %d, %v; want 4 (after \"one\\n\")", end, err)
	}
	_, lines := tailLines(t, path, 4)
	appendTo(t, path, "\nthree\n")
	want(t, lines, "two", "three")

	appendTo(t, path, "four")
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
	want(t, lines, "four")
	if end, err := SettledEnd(f, time.Minute, time.Now()); err != nil || end != 18 {
		t.Errorf("SettledEnd of a file left alone = %d, %v; want its size, 18", end, err)
	}

	// The next file's first line is a line of its own, though the old one
	// ended without a newline.
	appendTo(t, path, "fi")
	if err := os.Rename(path, path+".1"); err != nil {
		t.Fatal(err)
	}
	appendTo(t, path, "six\n")
	want(t, lines, "fi", "six")
}

// A file emptied and written again to as much as was read before the tail
// looked (tail -F misses it: the size alone does not change) is read again
// from its start: the bytes read last are no longer there.
func TestTailRewrittenToTheSameSize(t *testing.T) {
	path := filepath.Join(t.TempDir(), "app.log")
	appendTo(t, path, "10:00:01 one\n")
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	// Read before (to its end), then rewritten before the tail starts.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	tail, err := NewTail(ctx, path, f, 13, fastTail)
	if err != nil {
		t.Fatal(err)
	}
	defer tail.Close()
	if err := os.WriteFile(path, []byte("10:00:02 two\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	read := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(tail).ReadString('\n')
		read <- line
	}()
	select {
	case line := <-read:
		if line != "10:00:02 two\n" || tail.Restarts() != 1 {
			t.Errorf("read %q, restarts %d; want the new line, read again from the start once", line, tail.Restarts())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the rewritten file was not read again within 10s")
	}
}
