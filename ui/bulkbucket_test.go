package ui

import (
	"context"
	"errors"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/go-logr/logr"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument"
)

// bucketEndpoint is a real endpoint with the fixed dataset's controllers and
// limiters: naive per-item exponential only, outage client-go's classic
// max(exponential, bucket), wellbehaved per-item exponential only; each
// with one failed key.
func bucketEndpoint(t *testing.T) *inspector.Session {
	t.Helper()
	reg := instrument.NewRegistry()
	fail := func(key string, rl interface{ When(string) time.Duration }, p *instrument.TypedProbe[string]) {
		_ = p.Track(key, func() error { return errors.New("boom") })
		rl.When(key)
	}
	naive := instrument.NewTyped[string]("naive", instrument.TypedOptions[string]{Registry: reg})
	fail("demo/naive-00001", naive.RateLimiter(instrument.NewExponentialLimiter[string](5*time.Millisecond, 1000*time.Second)), naive)
	outage := instrument.NewTyped[string]("outage", instrument.TypedOptions[string]{Registry: reg})
	fail("demo/outage-00003", outage.RateLimiter(instrument.DefaultControllerLimiter[string]()), outage)
	well := instrument.NewTyped[string]("wellbehaved", instrument.TypedOptions[string]{Registry: reg})
	fail("demo/wellbehaved-00002", well.RateLimiter(instrument.NewExponentialLimiter[string](5*time.Millisecond, 1000*time.Second)), well)
	discard := logr.Discard()
	srv := httptest.NewServer(instrument.NewHandler(instrument.HandlerOptions{Registry: reg, Logger: &discard}))
	t.Cleanup(srv.Close)
	s, err := inspector.Direct(srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// A bulk forget over every controller whose filter selects only naive's
// keys speaks of naive's limiter, which has no token bucket: the dialog
// must not say a bucket applies because another controller asked (outage)
// has one. Once the dry run has counted where the keys are, the sentence
// follows the controllers that hold them.
func TestBulkForgetBucketOnlyWhereKeysAre(t *testing.T) {
	s := bucketEndpoint(t)
	for _, tt := range []struct {
		filter    string
		keys      int
		want, not string
	}{
		{"naive", 1, "a next failure waits only the base delay.", "bucket"},
		{"outage", 1, "token bucket", "waits only the base delay"},
		// Keys of all three: each limiter has its own say.
		{"-0000", 3, "a next failure waits only the base delay, except in outage, whose token bucket still applies.", "the token bucket still applies to a next failure"},
	} {
		t.Run(tt.filter, func(t *testing.T) {
			m := send(t, loaded(t, 120, 30), press("/"))
			m = send(t, m, typeText(tt.filter)...)
			m = send(t, m, press("enter"), press("F"))
			if m.dialog() == nil || !m.dialog().Act.Bulk() || len(m.dialog().Act.Controllers) != 3 {
				t.Fatalf("F under filter %q: want a bulk dialog over the 3 controllers, got %+v", tt.filter, m.dialog())
			}
			dry := dryRunCmd(context.Background(), s, m.dialog().ID, m.dialog().Act)().(dryRunMsg)
			if dry.err != nil || dry.count != tt.keys {
				t.Fatalf("dry run: %d keys, error %v; want %d", dry.count, dry.err, tt.keys)
			}
			m = send(t, m, dry)
			text := strings.Join(m.dialog().Prompt(), " ")
			if !strings.Contains(text, tt.want) {
				t.Errorf("the dialog does not say %q: %q", tt.want, text)
			}
			if strings.Contains(text, tt.not) {
				t.Errorf("the dialog says %q: %q", tt.not, text)
			}
		})
	}
}
