package instrument

import (
	"net/http"
	"testing"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// TestHandlerPacesReads: with every read slot taken (readers in a loop), a
// read waits and is then answered 429 with Retry-After in the documented
// shape, while a forget still gets through; once a slot frees, reads are
// answered again.
func TestHandlerPacesReads(t *testing.T) {
	e := htFixture(t)
	h := NewHandler(HandlerOptions{Registry: e.reg}).(*handler)
	for range cap(h.pace.slots) {
		h.pace.slots <- struct{}{}
	}
	code, hdr, m := e.do(h, http.MethodGet, api.DefaultPrefix+"v1/controllers", "")
	htCheckError(t, "v1/controllers", code, m, http.StatusTooManyRequests, "TooManyRequests", "reads a second")
	if got := hdr.Get("Retry-After"); got != "1" {
		t.Errorf("Retry-After = %q, want 1", got)
	}
	code, _, m = e.do(h, http.MethodPost, api.DefaultPrefix+"v1/forget", `{"controller":"alpha","keys":["default/a1"],"dryRun":true}`)
	if code != http.StatusOK {
		t.Errorf("forget while reads are paced: status %d, want 200: %v", code, m)
	}
	<-h.pace.slots
	if code, _, m := e.do(h, http.MethodGet, api.DefaultPrefix+"v1/controllers", ""); code != http.StatusOK {
		t.Errorf("after a slot freed: status %d, want 200: %v", code, m)
	}
}
