package cli_test

import (
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kubectl-backoff/kubectl-backoff/internal/cli"
)

// runGetWatch runs get -w ARGS on w until the test ends; its stdout.
func runGetWatch(t *testing.T, w *followWorld, args ...string) *syncBuffer {
	t.Helper()
	out := &syncBuffer{}
	streams := genericiooptions.IOStreams{In: strings.NewReader(""), Out: out, ErrOut: &syncBuffer{}}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		cmd := cli.NewGetCommandWithClock(clocktesting.NewFakeClock(w.clk.Now()))(genericclioptions.NewConfigFlags(true), streams)
		cmd.SetArgs(append([]string{"--addr", w.srv.URL, "-w", "--sort", "key", "--controller", "widget"}, args...))
		done <- cmd.ExecuteContext(ctx)
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("get -w %v ended with %v, want nil on interrupt", args, err)
		}
	})
	return out
}

// tick steps the endpoint's clock: its watch then brings the change.
func (w *followWorld) tick() {
	if w.clk.HasWaiters() {
		w.clk.Step(time.Second)
	}
}

// TestGetWatchStreamsObjects: get -w -o json prints, as kubectl's watch
// does, one JSON object per key and then one per change, no table and no
// list: a stream that json.Decoder reads object by object.
func TestGetWatchStreamsObjects(t *testing.T) {
	w := newFollowWorld(t, false)
	out := runGetWatch(t, w, "-o", "json")
	waitFor(t, out, `"default/w1"`, func() {})
	w.fail("default/w9")
	waitFor(t, out, `"default/w9"`, w.tick)
	dec := json.NewDecoder(strings.NewReader(out.String()))
	var keys []string
	for {
		var k struct {
			Controller string `json:"controller"`
			Key        string `json:"key"`
		}
		if err := dec.Decode(&k); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("get -w -o json is not a stream of JSON objects: %v\n%s", err, out)
		}
		keys = append(keys, k.Controller+" "+k.Key)
	}
	if got, want := strings.Join(keys, ", "), "widget default/w1, widget default/w9"; got != want {
		t.Errorf("get -w -o json printed the objects %s; want %s\n%s", got, want, out)
	}
}

// TestGetWatchRowsAlignToTheHeader: a row get -w prints later starts its
// columns where the header's do (one table for the stream, as kubectl's),
// not at widths of its own: "widget" under CONTROLLER is narrower than the
// header.
func TestGetWatchRowsAlignToTheHeader(t *testing.T) {
	w := newFollowWorld(t, false)
	out := runGetWatch(t, w)
	waitFor(t, out, "default/w1", func() {})
	w.fail("default/w9")
	waitFor(t, out, "default/w9", w.tick)
	lines := strings.Split(out.String(), "\n")
	header := lines[0]
	for _, col := range []string{"KEY", "STATE", "FAILS"} {
		want := strings.Index(header, col)
		for _, l := range lines[1:] {
			if l == "" {
				continue
			}
			fields := strings.Fields(l)
			cell := map[string]string{"KEY": fields[1], "STATE": fields[2], "FAILS": fields[3]}[col]
			if got := strings.Index(l, " "+cell) + 1; got != want {
				t.Errorf("%s of row %q starts at column %d; the header's at %d:\n%s", col, l, got, want, out)
			}
		}
	}
}
