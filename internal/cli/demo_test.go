package cli

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/logs"
)

func TestDemoFlagValidation(t *testing.T) {
	tests := []struct {
		args     []string
		wantFlag string
	}{
		{[]string{"--keys", "-1"}, "--keys"},
		{[]string{"--keys", "0"}, "--keys"},
		{[]string{"--keys", "100001"}, "--keys"},
		{[]string{"--listen", "nonsense"}, "--listen"},
		{[]string{"--listen", ""}, "--listen"},
		{[]string{"--speed", "0"}, "--speed"},
		{[]string{"--speed", "-2"}, "--speed"},
		{[]string{"--kubeconfig", "kc", "--in-cluster"}, "--kubeconfig"},
		{[]string{"--keys", "many"}, "--keys"}, // rejected by the flag parser
		// A sped-up log would read --speed times off in log mode.
		{[]string{"--log", filepath.Join(t.TempDir(), "demo.log"), "--speed", "10"}, "--log with --speed 10"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			cmd := NewRootCommand(genericiooptions.NewTestIOStreamsDiscard())
			cmd.SetArgs(append([]string{"demo"}, tt.args...))
			err := cmd.Execute()
			if err == nil {
				t.Fatalf("demo %v: no error, want one naming %s", tt.args, tt.wantFlag)
			}
			if !strings.Contains(err.Error(), tt.wantFlag) {
				t.Errorf("demo %v: error %q does not name %s", tt.args, err, tt.wantFlag)
			}
		})
	}
}

func TestDemoOptionsComplete(t *testing.T) {
	o := NewDemoOptions(nil, genericiooptions.NewTestIOStreamsDiscard())
	o.Keys, o.Speed, o.Seed, o.Listen = 10, 50, 7, "127.0.0.1:0"
	if err := o.Complete(nil, nil); err != nil {
		t.Fatalf("Complete: %v", err)
	}
	if err := o.Validate(); err != nil {
		t.Fatalf("Validate: %v", err)
	}
	if e, a := 10, o.demo.Keys; e != a {
		t.Errorf("Keys = %d, want %d", a, e)
	}
	if e, a := 50.0, o.demo.Speed; e != a {
		t.Errorf("Speed = %g, want %g", a, e)
	}
	if e, a := int64(7), o.demo.Seed; e != a {
		t.Errorf("Seed = %d, want %d", a, e)
	}
}

// TestDemoLogFile: --log FILE writes the demo controllers' log, which log
// mode reads back: failing keys of the demo's controllers.
func TestDemoLogFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "demo.log")
	streams, _, out, errOut := genericiooptions.NewTestIOStreams()
	o := NewDemoOptions(nil, streams)
	o.Keys, o.Speed, o.Seed, o.Listen, o.ServeOnly, o.LogFile = 20, 1, 7, "127.0.0.1:0", true, path
	if err := o.Complete(nil, nil); err != nil {
		t.Fatal(err)
	}
	if err := o.Validate(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- o.Run(ctx) }()
	// The naive controller fails every key from its first reconcile on.
	deadline := time.Now().Add(20 * time.Second)
	var keys int
	for keys == 0 && time.Now().Before(deadline) {
		f, err := os.Open(path)
		if err == nil {
			store := logs.NewStore(logs.Options{})
			_, _, _ = store.Read(context.Background(), f)
			f.Close()
			keys = store.Len()
		}
		if keys == 0 {
			time.Sleep(50 * time.Millisecond) // polling the file, bounded by the deadline
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Run: %v", err)
	}
	if keys == 0 {
		t.Fatalf("no key read from %s within 20s", path)
	}
	if !strings.Contains(errOut.String(), "--from-logs "+path) {
		t.Errorf("stderr %q; want it to say how to read the log", errOut)
	}
	// The banner offers the live view on the address stdout printed.
	u, err := url.Parse(strings.TrimSpace(out.String()))
	if err != nil || u.Host == "" {
		t.Fatalf("stdout %q: not the endpoint's URL (%v)", out, err)
	}
	if want := "try: kubectl backoff top --addr " + u.Host + " "; !strings.Contains(errOut.String(), want) {
		t.Errorf("stderr %q; want it to offer %q", errOut, want)
	}
	// The README starts it with &, where Ctrl-C does not reach it.
	if want := fmt.Sprintf("kill %d ", os.Getpid()); !strings.Contains(errOut.String(), want) {
		t.Errorf("stderr %q; want it to say how a background demo stops: %q", errOut, want)
	}
}

// TestDemoLogFileUnwritable: a --log that cannot be written is an error naming the flag.
func TestDemoLogFileUnwritable(t *testing.T) {
	o := NewDemoOptions(nil, genericiooptions.NewTestIOStreamsDiscard())
	o.Listen, o.ServeOnly, o.LogFile = "127.0.0.1:0", true, filepath.Join(t.TempDir(), "no-such-dir", "demo.log")
	if err := o.Complete(nil, nil); err != nil {
		t.Fatal(err)
	}
	if err := o.Run(context.Background()); err == nil || !strings.HasPrefix(err.Error(), "--log: ") {
		t.Errorf("Run: %v; want an error naming --log", err)
	}
}
