package cli

import (
	"bytes"
	"context"
	"os"
	"testing"
	"time"

	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// errorLine is a controller-runtime v0.25 "Reconciler error" line (zap JSON).
const errorLine = `{"level":"error","ts":"2026-11-30T08:24:45Z","msg":"Reconciler error","controller":"widget","namespace":"default","name":"w1","reconcileID":"a","error":"boom"}` + "\n"

// top follows a pipe (kubectl logs -f | kubectl backoff top --from-logs -):
// lines written after it opened show up, and quitting does not wait for
// the pipe to close.
func TestTopFromLogsFollowsAPipe(t *testing.T) {
	s, w := openPipedTop(t)
	if _, err := w.WriteString(errorLine); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		l, err := s.Keys(context.Background(), inspector.KeyQuery{})
		if err == nil && len(l.Items) == 1 && l.Items[0].Key.Key == "default/w1" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the piped line did not show up within 10s: %+v, %v", l, err)
		}
		time.Sleep(time.Millisecond)
	}
	// The header's log line comes over the wire with the controllers.
	ov, err := s.Overview(context.Background())
	if err != nil || len(ov.Replicas) != 1 || ov.Replicas[0].Source == nil || ov.Replicas[0].Source.Read == nil {
		t.Fatalf("overview: %+v, %v; want one replica with what its log read", ov, err)
	}
	if lr := ov.Replicas[0].Source.Read; lr.Lines != 1 || lr.Recognised["controller-runtime (JSON)"] != 1 || lr.Unreadable != 0 {
		t.Errorf("logRead = %+v, want 1 line, 1 controller-runtime (JSON) record", lr)
	}
	closed := make(chan struct{})
	go func() { s.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(10 * time.Second):
		t.Fatal("Close waited for the open pipe")
	}
}

// A pipe that closes (kubectl logs -f ended, or the command before the
// pipe failed) is said in what the header shows: top's countdowns go on at
// the clock, and without it the screen reads as live, waiting for lines
// that cannot come.
func TestTopFromLogsSaysThePipeEnded(t *testing.T) {
	s, w := openPipedTop(t)
	if _, err := w.WriteString(errorLine); err != nil {
		t.Fatal(err)
	}
	read := func() *api.LogRead {
		ov, err := s.Overview(context.Background())
		if err != nil || len(ov.Replicas) != 1 || ov.Replicas[0].Source == nil || ov.Replicas[0].Source.Read == nil {
			t.Fatalf("overview: %+v, %v; want one replica with what its log read", ov, err)
		}
		return ov.Replicas[0].Source.Read
	}
	deadline := time.Now().Add(10 * time.Second)
	for read().Lines != 1 {
		if time.Now().After(deadline) {
			t.Fatal("the piped line was not read within 10s")
		}
		time.Sleep(time.Millisecond)
	}
	if read().Ended {
		t.Fatal("logRead says ended while the pipe is open")
	}
	w.Close()
	for !read().Ended {
		if time.Now().After(deadline) {
			t.Fatal("logRead does not say ended 10s after the pipe closed")
		}
		time.Sleep(time.Millisecond)
	}
	s.Close()
}

// openPipedTop opens top's source as `… | kubectl backoff top --from-logs -`
// does, over a real pipe: the session, and the pipe's end to write lines
// to (both closed when the test ends).
func openPipedTop(t *testing.T) (*inspector.Session, *os.File) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close(); r.Close() })
	o := &TopOptions{attachOptions: newAttachOptions(genericclioptions.NewConfigFlags(false)),
		IOStreams: genericiooptions.IOStreams{In: r, Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}}}
	if err := o.Complete([]string{}); err != nil {
		t.Fatal(err)
	}
	o.fromLogs.source = "-"
	s, _, pods, err := o.openFromLogs(context.Background())
	if err != nil || pods != nil {
		t.Fatalf("openFromLogs: %v, pods %v", err, pods)
	}
	return s, w
}
