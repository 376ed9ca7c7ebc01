package logs

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// TestLogEndsAtLastLine: a saved log is read as of its last timed line,
// not its last failure: the info lines after a key's last failure, which
// the prefilter skips undecoded, still move the log's clock, and a key
// whose retry was due long before the end reads unknown. On every path
// a log is read: in parallel (a file), line by line (Workers 1, as
// --explain-lines reads), and as a pipe that turns out to carry a saved
// log (Live, DatedAfter).
//
// The fixtures, read by eye: batch 3's kube-ovn log fails ovn-default
// once at 02:45:16.68 (a 5ms delay) and runs on, info and warning lines,
// to W0114 03:01:56.926518; batch 4's CAPA log fails
// default/capi-eks-quickstart-control-plane at 20:42:09.707851 and logs
// the retry's progress to I0810 20:42:21.783345 ("Created EKS cluster");
// the demo's key demo/naive-00002 last fails at 10:11:42, minutes after
// its failure before, and one info line (of another controller) an hour
// later ends the log.
func TestLogEndsAtLastLine(t *testing.T) {
	demo, err := os.ReadFile("testdata/demo/naive-00002.log")
	if err != nil {
		t.Fatal(err)
	}
	demo = append(demo, `{"level":"info","ts":"2026-12-06T11:11:42Z","msg":"Starting workers","controller":"other","worker count":1}`+"\n"...)
	cases := []struct {
		name, file string
		raw        []byte
		clock      time.Time
		controller string
		key        string
		end        time.Time
	}{
		{name: "kube-ovn", file: "testdata/batch3/85-kube-ovn-klog-multiline-error.log", clock: time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC),
			controller: "subnet", key: "ovn-default", end: time.Date(2026, 1, 14, 3, 1, 56, 926518000, time.UTC)},
		{name: "capa", file: "testdata/batch4/330-capa-klogr-reconciler-error-then-reconciling-success-info.log", clock: time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC),
			controller: "awsmanagedcontrolplane", key: "default/capi-eks-quickstart-control-plane", end: time.Date(2025, 8, 10, 20, 42, 21, 783345000, time.UTC)},
		{name: "demo plus an info line an hour later", raw: demo, clock: time.Date(2026, 12, 7, 0, 0, 0, 0, time.UTC),
			controller: "naive", key: "demo/naive-00002", end: time.Date(2026, 12, 6, 11, 11, 42, 0, time.UTC)},
	}
	for _, c := range cases {
		raw := c.raw
		if c.file != "" {
			if raw, err = os.ReadFile(c.file); err != nil {
				t.Fatal(err)
			}
		}
		for _, how := range []struct {
			name string
			opts Options
		}{
			{"parallel", Options{Workers: 2}},
			{"line by line", Options{Workers: 1}},
			{"old pipe", Options{Live: true, DatedAfter: time.Hour}},
		} {
			t.Run(c.name+"/"+how.name, func(t *testing.T) {
				o := how.opts
				o.Clock = clocktesting.NewFakePassiveClock(c.clock)
				s := NewStore(o)
				if _, _, err := s.Read(context.Background(), bytes.NewReader(raw)); err != nil {
					t.Fatal(err)
				}
				if st := s.Stats(); !st.Last.Equal(c.end) || !st.EndsAt.Equal(c.end) {
					t.Errorf("Stats: Last %v, EndsAt %v; want the last line's %v", st.Last, st.EndsAt, c.end)
				}
				k, err := s.Key(c.controller, c.key)
				if err != nil {
					t.Fatalf("Key(%s, %s): %v", c.controller, c.key, err)
				}
				if k.State != api.StateUnknown || !k.ServerTime.Equal(c.end) {
					t.Errorf("%s is %s at %v; want unknown at %v (its retry was due long before the log's end)", c.key, k.State, k.ServerTime, c.end)
				}
			})
		}
	}
}

// TestLogEndsAcrossChunks: a log of many chunks, its one failure in the
// first, its last line thousands of lines later, ends at that line, read
// in parallel or line by line; a log newest first (a store's export)
// ends at its first line.
func TestLogEndsAcrossChunks(t *testing.T) {
	at := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	var b strings.Builder
	fmt.Fprintf(&b, `{"level":"error","ts":"%s","msg":"Reconciler error","controller":"widget","namespace":"ns","name":"w","reconcileID":"r","error":"boom"}`+"\n", at.Format(time.RFC3339Nano))
	n := 2*chunkLines + 100
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, `{"level":"info","ts":"%s","msg":"updated status","controller":"widget"}`+"\n", at.Add(time.Duration(i)*time.Second).Format(time.RFC3339Nano))
	}
	end := at.Add(time.Duration(n) * time.Second)
	lines := strings.SplitAfter(strings.TrimSuffix(b.String(), "\n"), "\n")
	var rev strings.Builder
	for i := len(lines) - 1; i >= 0; i-- {
		rev.WriteString(strings.TrimSuffix(lines[i], "\n") + "\n")
	}
	for _, log := range []struct{ name, raw string }{{"in order", b.String()}, {"newest first", rev.String()}} {
		for _, w := range []int{1, 3} {
			s := NewStore(Options{Workers: w, Clock: clocktesting.NewFakePassiveClock(end.Add(time.Hour))})
			if _, _, err := s.Read(context.Background(), strings.NewReader(log.raw)); err != nil {
				t.Fatal(err)
			}
			if got := s.Stats().EndsAt; !got.Equal(end) {
				t.Errorf("%s on %d workers: ends at %v, want %v", log.name, w, got, end)
			}
		}
	}
}

// TestStreamEndsAtLinesSoFar: a stream's end is its lines so far: an info
// line after the failure moves it as soon as the reader has it, before
// the stream ends.
func TestStreamEndsAtLinesSoFar(t *testing.T) {
	at := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	clk := clocktesting.NewFakePassiveClock(at.Add(3 * time.Hour))
	s := NewStore(Options{Live: true, DatedAfter: time.Hour, Clock: clk})
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		_, _, err := s.Read(context.Background(), pr)
		done <- err
	}()
	fmt.Fprintf(pw, `{"level":"error","ts":"%s","msg":"Reconciler error","controller":"widget","namespace":"ns","name":"w","reconcileID":"r","error":"boom"}`+"\n", at.Format(time.RFC3339Nano))
	info := at.Add(10 * time.Minute)
	fmt.Fprintf(pw, `{"level":"info","ts":"%s","msg":"updated status","controller":"widget"}`+"\n", info.Format(time.RFC3339Nano))
	deadline := time.Now().Add(10 * time.Second)
	for !s.Stats().EndsAt.Equal(info) {
		if time.Now().After(deadline) {
			t.Fatalf("the stream's end is %v, want the info line's %v while the stream is open", s.Stats().EndsAt, info)
		}
		time.Sleep(time.Millisecond)
	}
	if k, err := s.Key("widget", "ns/w"); err != nil || k.State != api.StateUnknown {
		t.Errorf("ns/w: %+v, %v; want unknown ten minutes after its 5ms retry", k, err)
	}
	pw.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
