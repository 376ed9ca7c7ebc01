package query

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// TestHandlerBusy: with every computation slot taken, a list request waits
// AdmissionWait and is answered 429 with Retry-After in the documented shape;
// once a slot frees, it is answered, with its age.
func TestHandlerBusy(t *testing.T) {
	h := NewHandler(testKeys(time.Now()), Options{MaxConcurrentLists: 1, AdmissionWait: time.Millisecond})
	h.adm.slots <- struct{}{} // another computation holds the only slot
	for _, target := range []string{"v1/keys", "v1/errors", "v1/controllers"} {
		code, hdr, m := serve(t, h, http.MethodGet, api.DefaultPrefix+target, "")
		checkError(t, target, code, m, http.StatusTooManyRequests, "TooManyRequests", "retry")
		if got := hdr.Get("Retry-After"); got != "1" {
			t.Errorf("%s: Retry-After = %q, want \"1\"", target, got)
		}
	}
	<-h.adm.slots
	code, _, m := serve(t, h, http.MethodGet, api.DefaultPrefix+"v1/keys", "")
	if code != http.StatusOK {
		t.Fatalf("after the slot freed: status = %d, want 200: %v", code, m)
	}
	if m["age"] != "0s" {
		t.Errorf("age = %v, want 0s for a fresh page", m["age"])
	}
}

// TestAdmissionSharesOneComputation: identical concurrent requests run one
// computation and all get its result.
func TestAdmissionSharesOneComputation(t *testing.T) {
	a := newAdmission(2, time.Second, -1)
	const n = 8
	var computed atomic.Int32
	release := make(chan struct{})
	compute := func(context.Context) (any, error) {
		computed.Add(1)
		<-release
		return "page", nil
	}
	var wg sync.WaitGroup
	got := make([]any, n)
	for i := range n {
		wg.Go(func() {
			got[i], _, _ = a.do(context.Background(), "keys?sort=next", time.Time{}, true, compute)
		})
	}
	// Every request has joined the one flight before it may finish.
	deadline := time.Now().Add(10 * time.Second)
	for {
		a.mu.Lock()
		refs := 0
		if c := a.calls["keys?sort=next"]; c != nil {
			refs = c.refs
		}
		a.mu.Unlock()
		if refs == n {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d requests joined the computation", refs, n)
		}
		time.Sleep(time.Millisecond)
	}
	close(release)
	wg.Wait()
	if c := computed.Load(); c != 1 {
		t.Errorf("computed %d times, want once", c)
	}
	for i, v := range got {
		if v != "page" {
			t.Errorf("request %d got %v, want the shared page", i, v)
		}
	}
}

// TestAdmissionReuse: a finished result answers identical requests only
// while the endpoint is busy and within the window on both clocks.
func TestAdmissionReuse(t *testing.T) {
	real := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	server := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	a := newAdmission(1, time.Millisecond, 250*time.Millisecond)
	a.now = func() time.Time { return real }
	n := 0
	compute := func(context.Context) (any, error) { n++; return n, nil }
	do := func(reuse bool) (any, time.Duration, error) {
		return a.do(context.Background(), "k", server, reuse, compute)
	}
	// A computation keeps its slot for 4 times as long as it ran, on the
	// real clock: one a loaded machine stretched past 250µs still holds it
	// after do returned (the endpoint busy, or the slot filled below
	// blocking forever). Idle is once the rest is over: at most 250ms.
	idle := func() {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); len(a.slots) != 0; {
			if time.Now().After(deadline) {
				t.Fatal("the computation's slot was never given back")
			}
			time.Sleep(time.Millisecond) // polling a condition, with a deadline
		}
	}
	if v, age, err := do(true); v != 1 || age != 0 || err != nil {
		t.Fatalf("first = %v, %v, %v; want 1, 0s, nil", v, age, err)
	}
	idle()
	if v, _, _ := do(true); v != 2 {
		t.Errorf("idle endpoint: got %v, want a fresh 2 (no reuse without load)", v)
	}
	idle()
	a.slots <- struct{}{} // busy: every slot taken
	real = real.Add(100 * time.Millisecond)
	server = server.Add(100 * time.Millisecond)
	if v, age, err := do(true); v != 2 || age != 100*time.Millisecond || err != nil {
		t.Errorf("busy, 100ms later: got %v, %v, %v; want the reused 2, 100ms old", v, age, err)
	}
	if _, _, err := do(false); !isBusy(err) {
		t.Errorf("busy, reuse off: err = %v, want 429 (it must compute, and cannot)", err)
	}
	real = real.Add(200 * time.Millisecond)
	server = server.Add(200 * time.Millisecond)
	if _, _, err := do(true); !isBusy(err) {
		t.Errorf("busy, 300ms later: err = %v, want 429 (too old to reuse)", err)
	}
}

func isBusy(err error) bool {
	e, ok := errors.AsType[*Error](err)
	return ok && e.Status == http.StatusTooManyRequests
}

// TestAdmissionCancel: when every request waiting for a computation has
// gone, the computation is cancelled.
func TestAdmissionCancel(t *testing.T) {
	a := newAdmission(1, time.Second, -1)
	stopped := make(chan error, 1)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		_, _, err := a.do(ctx, "k", time.Time{}, true, func(ctx context.Context) (any, error) {
			cancel() // the client goes away mid-computation
			<-ctx.Done()
			stopped <- ctx.Err()
			return nil, ctx.Err()
		})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("do = %v, want context.Canceled", err)
		}
	}()
	select {
	case err := <-stopped:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("computation stopped with %v, want context.Canceled", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the computation was not cancelled after its only client left")
	}
}

// TestHandlerAge: a reused answer states its age in place of the encoded
// 0s, compact and indented alike; a fresh one says 0s.
func TestHandlerAge(t *testing.T) {
	for _, indent := range []bool{false, true} {
		a := &listAnswer{}
		l := api.KeyList{Items: []api.Key{{Key: "age"}}}
		b, _ := json.Marshal(l)
		a.compact = append(b, '\n')
		body := a.body(indent)
		for _, age := range []time.Duration{0, 120 * time.Millisecond} {
			rec := httptest.NewRecorder()
			writeAged(rec, body, indent, age)
			var got api.KeyList
			if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil {
				t.Fatalf("indent %v, age %v: %v\n%s", indent, age, err, rec.Body)
			}
			if got.Age.Duration != age || len(got.Items) != 1 || got.Items[0].Key != "age" {
				t.Errorf("indent %v: age %v, items %v; want %v and the one item", indent, got.Age.Duration, got.Items, age)
			}
		}
	}
}
