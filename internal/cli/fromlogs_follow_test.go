package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/logs"
)

// reconcilerError is a controller-runtime v0.25 "Reconciler error" line
// (zap JSON, as errorLine) for name at ts.
func reconcilerError(ts time.Time, name string) string {
	return fmt.Sprintf(`{"level":"error","ts":%q,"msg":"Reconciler error","controller":"widget","namespace":"default","name":%q,"reconcileID":"a","error":"boom"}`+"\n",
		ts.UTC().Format(time.RFC3339Nano), name)
}

// openTopOn opens top's source on --from-logs path, as top does, looking
// at the file's end every millisecond.
func openTopOn(t *testing.T, path string) *inspector.Session {
	t.Helper()
	old := tailOptions
	tailOptions = logs.TailOptions{Poll: time.Millisecond}
	t.Cleanup(func() { tailOptions = old })
	o := &TopOptions{attachOptions: newAttachOptions(genericclioptions.NewConfigFlags(false)), Refresh: time.Second,
		IOStreams: genericiooptions.IOStreams{In: &bytes.Buffer{}, Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}}}
	o.fromLogs.source, o.fromLogs.since = path, time.Hour
	return openTopSource(t, o)
}

// openTopSource completes and validates o as top does and opens its
// --from-logs source: the session, closed when the test ends.
func openTopSource(t *testing.T, o *TopOptions) *inspector.Session {
	t.Helper()
	if err := o.Complete(nil); err != nil {
		t.Fatal(err)
	}
	if err := o.Validate(); err != nil {
		t.Fatal(err)
	}
	s, _, _, err := o.openFromLogs(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// waitKeys waits, up to 10s, until the session's keys are want (key:
// failures).
func waitKeys(t *testing.T, s *inspector.Session, what string, want map[string]int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		l, err := s.Keys(context.Background(), inspector.KeyQuery{})
		got := map[string]int{}
		if err == nil {
			for _, k := range l.Items {
				got[k.Key.Key] = k.Failures
			}
		}
		if fmt.Sprint(got) == fmt.Sprint(want) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: keys %v (%v) after 10s, want %v", what, got, err, want)
		}
		time.Sleep(time.Millisecond)
	}
}

// ended says whether the session's log is judged as of its last line.
func ended(t *testing.T, s *inspector.Session) bool {
	t.Helper()
	ov, err := s.Overview(context.Background())
	if err != nil || len(ov.Replicas) != 1 {
		t.Fatalf("overview: %+v, %v", ov, err)
	}
	return ov.Replicas[0].Source.Ended()
}

// top --from-logs FILE follows the file as tail -F does: appended lines
// count as they are written, and a file truncated or rotated under its
// name is read again from its start, the counts going on.
func TestTopFromLogsFollowsAFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "controller.log")
	t0 := time.Now().Add(-time.Minute)
	write(t, path, reconcilerError(t0, "w1"))
	s := openTopOn(t, path)
	waitKeys(t, s, "the file as opened", map[string]int{"default/w1": 1})
	if ended(t, s) {
		t.Error("a log written a minute ago is judged as of its last line, want live")
	}

	appendLog(t, path, reconcilerError(t0.Add(time.Second), "w1")+reconcilerError(t0.Add(2*time.Second), "w2"))
	waitKeys(t, s, "appended", map[string]int{"default/w1": 2, "default/w2": 1})

	// copytruncate: the file is emptied and written again from its start.
	if err := os.Truncate(path, 0); err != nil {
		t.Fatal(err)
	}
	appendLog(t, path, reconcilerError(t0.Add(3*time.Second), "w3"))
	waitKeys(t, s, "truncated", map[string]int{"default/w1": 2, "default/w2": 1, "default/w3": 1})

	// Rotated: renamed away, and a new file under the name.
	if err := os.Rename(path, path+".1"); err != nil {
		t.Fatal(err)
	}
	write(t, path, reconcilerError(t0.Add(4*time.Second), "w1"))
	waitKeys(t, s, "rotated", map[string]int{"default/w1": 3, "default/w2": 1, "default/w3": 1})
}

// A file whose last line is old reads as of that line (a saved log), as a
// pipe's does, until a line of now is written to it.
func TestTopFromLogsFollowsASavedFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "saved.log")
	t0 := time.Date(2026, 11, 30, 8, 24, 45, 0, time.UTC)
	write(t, path, reconcilerError(t0, "w1")+reconcilerError(t0.Add(time.Second), "w1"))
	s := openTopOn(t, path)
	waitKeys(t, s, "the saved file", map[string]int{"default/w1": 2})
	if !ended(t, s) {
		t.Error("a log of days ago is judged at the clock, want as of its last line")
	}
	appendLog(t, path, reconcilerError(time.Now(), "w2"))
	waitKeys(t, s, "a line of now", map[string]int{"default/w1": 2, "default/w2": 1})
	if ended(t, s) {
		t.Error("after a line of now, the log is still judged as of its last line, want live")
	}
}

// get and describe read a file once, to its end: a line appended after
// is not read.
func TestGetFromLogsReadsAFileOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "controller.log")
	write(t, path, reconcilerError(time.Now(), "w1"))
	o := &GetOptions{attachOptions: newAttachOptions(genericclioptions.NewConfigFlags(false)),
		IOStreams: genericiooptions.IOStreams{In: &bytes.Buffer{}, Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}}}
	o.fromLogs.source = path
	s, _, err := o.fromLogs.open(context.Background(), &o.attachOptions, o.IOStreams, false)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	appendLog(t, path, reconcilerError(time.Now(), "w2"))
	// A top opened now reads both: had get followed, it would by now too.
	waitKeys(t, openTopOn(t, path), "top", map[string]int{"default/w1": 1, "default/w2": 1})
	waitKeys(t, s, "get", map[string]int{"default/w1": 1})
}

func write(t *testing.T, path, s string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func appendLog(t *testing.T, path, s string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(s); err != nil {
		t.Fatal(err)
	}
}
