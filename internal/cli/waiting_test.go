package cli

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	clocktesting "k8s.io/utils/clock/testing"
)

// syncBuffer is a stderr written from the waiting note's timer and read by
// the test.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// hungEndpoint takes connections and never answers, as a SIGSTOPped
// process does; requests reports each request it got.
func hungEndpoint(t *testing.T) (srv *httptest.Server, requests chan struct{}) {
	requests = make(chan struct{}, 16)
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests <- struct{}{}
		<-r.Context().Done() // until the client gives up
	}))
	t.Cleanup(srv.Close)
	return srv, requests
}

// Issue #32 item 7 and #30 item 9: with --addr, a hung endpoint took 30 s
// whatever --request-timeout said, in silence, then "context deadline
// exceeded (Client.Timeout exceeded while awaiting headers)". A second
// into the wait stderr says "waiting for ADDR…"; --request-timeout bounds
// the wait; the error says in words what it means and the flag for a slow
// link.
func TestGetHungEndpointWaitsThenGivesUp(t *testing.T) {
	srv, requests := hungEndpoint(t)
	addr := strings.TrimPrefix(srv.URL, "http://")
	cf := genericclioptions.NewConfigFlags(false)
	// The timeout runs on the real clock (net/http's), the note on clk: the
	// step below must come while the request still waits. With 400ms, a
	// loaded machine (-race, 2 cores, other packages' tests) that kept this
	// goroutine from running that long between the request's arrival and
	// the step found the note's timer stopped: no note, or a wait for it
	// with no end.
	*cf.Timeout = "3s"
	clk := clocktesting.NewFakeClock(time.Date(2026, 12, 3, 10, 0, 0, 0, time.UTC))
	errOut := &syncBuffer{}
	streams := genericiooptions.IOStreams{In: strings.NewReader(""), Out: &strings.Builder{}, ErrOut: errOut}
	cmd, o := newGetCommandOptions(cf, streams, func(io.Writer) bool { return false })
	o.clock = clk
	cmd.SetArgs([]string{"--addr", srv.URL})
	done := make(chan error, 1)
	start := time.Now()
	go func() { done <- cmd.ExecuteContext(context.Background()) }()

	<-requests // the request is in flight: its note is due in a second
	for deadline := time.Now().Add(10 * time.Second); !clk.HasWaiters(); {
		if time.Now().After(deadline) {
			t.Fatalf("the transport armed no note while the request waited; stderr %q", errOut.String())
		}
		time.Sleep(time.Millisecond) // until the transport armed its note (a condition, with a deadline)
	}
	clk.Step(time.Second)
	if e, a := "waiting for "+addr+"… (no answer yet; giving up after 3.0s, --request-timeout)\n", errOut.String(); e != a {
		t.Errorf("stderr a second into the wait: %q, want %q", a, e)
	}
	select {
	case err := <-done:
		// The bug gave up after 30s whatever the flag said.
		if elapsed := time.Since(start); elapsed > 10*time.Second {
			t.Errorf("gave up after %v; --request-timeout said 3s", elapsed)
		}
		for _, want := range []string{addr + " (--addr) did not answer within 3.0s", "is its process stopped or stuck?", "--request-timeout 9.0s"} {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("error %v, want it to say %q", err, want)
			}
		}
	case <-time.After(20 * time.Second):
		t.Fatal("get still waiting 20s into a 3s --request-timeout")
	}
}

// The default gives up sooner than 30s, and a bad value names the flag.
func TestRequestTimeoutFlag(t *testing.T) {
	for in, want := range map[string]time.Duration{"0": 10 * time.Second, "": 10 * time.Second, "3": 3 * time.Second, "2m": 2 * time.Minute, "1.5s": 1500 * time.Millisecond} {
		cf := genericclioptions.NewConfigFlags(false)
		*cf.Timeout = in
		o := newAttachOptions(cf)
		d, err := o.requestTimeout()
		if err != nil || d != want {
			t.Errorf("--request-timeout %q: %v, %v; want %s", in, d, err, want)
		}
	}
	cf := genericclioptions.NewConfigFlags(false)
	*cf.Timeout = "soon"
	o := newAttachOptions(cf)
	if _, err := o.requestTimeout(); err == nil || !strings.Contains(err.Error(), `--request-timeout "soon"`) {
		t.Errorf("--request-timeout soon: %v, want the flag named", err)
	}
}
