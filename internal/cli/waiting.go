package cli

import (
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"

	"k8s.io/utils/clock"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// waitNoteAfter is how long a request to an endpoint goes unanswered
// before the user is told it is being waited for: an endpoint answers in
// milliseconds, and silence longer than a second reads as a hang.
const waitNoteAfter = time.Second

// requestTimeout is kubectl's --request-timeout, as client-go reads it (a
// duration, or whole seconds), bounding each request to an endpoint; "0"
// (its default) is inspector.DefaultRequestTimeout: an endpoint that has
// not answered in 10s will not, where kubectl's own "0" waits forever.
func (o *attachOptions) requestTimeout() (time.Duration, error) {
	s := "0"
	if o.configFlags != nil && o.configFlags.Timeout != nil && *o.configFlags.Timeout != "" {
		s = *o.configFlags.Timeout
	}
	if secs, err := strconv.ParseInt(s, 10, 64); err == nil && secs >= 0 {
		if secs == 0 {
			return inspector.DefaultRequestTimeout, nil
		}
		return time.Duration(secs) * time.Second, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("--request-timeout %q: give a duration, as 30s or 2m (0: the default, %s)", s, text.FormatDuration(inspector.DefaultRequestTimeout))
	}
	if d == 0 {
		return inspector.DefaultRequestTimeout, nil
	}
	return d, nil
}

// waitingTransport says "waiting for ADDR…" once, on the first request
// left unanswered for waitNoteAfter, with when the wait ends and the flag
// that moves it: a stopped endpoint (SIGSTOP) takes the connection and
// says nothing.
type waitingTransport struct {
	base    http.RoundTripper
	clock   clock.WithDelayedExecution
	out     io.Writer
	timeout time.Duration
	once    sync.Once
}

func (t *waitingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	timer := t.clock.AfterFunc(waitNoteAfter, func() {
		t.once.Do(func() {
			fmt.Fprintf(t.out, "waiting for %s… (no answer yet; giving up after %s, --request-timeout)\n", r.URL.Host, text.FormatDuration(t.timeout))
		})
	})
	defer timer.Stop()
	return t.base.RoundTrip(r)
}
