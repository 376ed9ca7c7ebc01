package query

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// TestHandlerPacesReads: with every read slot taken (readers in a loop), a
// read waits and is then answered 429 with Retry-After in the documented
// shape, while a forget still gets through; once a slot frees, reads are
// answered again.
func TestHandlerPacesReads(t *testing.T) {
	forgot := 0
	h := NewHandler(testKeys(time.Now()), Options{Forget: func(w http.ResponseWriter, r *http.Request) (bool, error) {
		forgot++
		ServeJSON(w, r, http.StatusOK, api.ForgetResponse{})
		return true, nil
	}})
	for range cap(h.pace.slots) {
		h.pace.slots <- struct{}{}
	}
	code, hdr, m := serve(t, h, http.MethodGet, api.DefaultPrefix+"v1/controllers", "")
	checkError(t, "v1/controllers", code, m, http.StatusTooManyRequests, "TooManyRequests", "reads a second")
	if got := hdr.Get("Retry-After"); got != "1" {
		t.Errorf("Retry-After = %q, want 1", got)
	}
	code, _, m = serve(t, h, http.MethodPost, api.DefaultPrefix+"v1/forget", `{"controller":"alpha","keys":["default/a1"],"dryRun":true}`)
	if code != http.StatusOK || forgot != 1 {
		t.Errorf("forget while reads are paced: status %d, %d forgets, want 200 and 1: %v", code, forgot, m)
	}
	<-h.pace.slots
	if code, _, m := serve(t, h, http.MethodGet, api.DefaultPrefix+"v1/controllers", ""); code != http.StatusOK {
		t.Errorf("after a slot freed: status %d, want 200: %v", code, m)
	}
}

// TestPacerSaysWhatDecided: a 429 says the duty cycle decided when the
// slots rest for what the reads before cost (a fifth of a core), and the
// rate only when the rate did.
func TestPacerSaysWhatDecided(t *testing.T) {
	for _, tt := range []struct {
		took time.Duration
		want string
	}{
		// cheap reads: the spacing of the rate decided
		{took: 0, want: "the endpoint is serving 10 reads a second already; retry in 1 s"},
		// costly ones: nine times their cost decided
		{took: 50 * time.Millisecond, want: "reads limited to a fifth of a core while the controller is busy; retry in 1 s (narrow the query by its controller, state or q parameter"},
	} {
		p := newPacer(10, time.Millisecond) // spacing 200ms
		p.since = func(time.Time) time.Duration { return tt.took }
		for range pacerSlots {
			done, err := p.enter(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			done()
		}
		_, err := p.enter(context.Background())
		e, ok := err.(*Error)
		if !ok || e.Status != http.StatusTooManyRequests || !strings.HasPrefix(e.Msg, tt.want) ||
			(tt.took == 0) == strings.Contains(e.Msg, "core") {
			t.Errorf("reads that took %v, then one more: %v; want a 429 saying %q", tt.took, err, tt.want)
		}
	}
}
