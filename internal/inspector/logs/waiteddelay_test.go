package logs

import (
	"bytes"
	"context"
	"os"
	"regexp"
	"testing"
	"time"

	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// readKey reads a log file into a store and returns key's state.
func readKey(t *testing.T, path, key string) *api.KeyDetail {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := NewStore(Options{Clock: clocktesting.NewFakePassiveClock(time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC))})
	if _, _, err := s.Read(context.Background(), bytes.NewReader(raw)); err != nil {
		t.Fatal(err)
	}
	k, err := s.Key("", key)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// TestWaitedDelayNextStep: virtual-kubelet v1.14.1's failure line states
// the delay its attempt waited (delayedViaRateLimit=, the limiter's delay
// after the key's previous failure), so the key's next delay is twice it,
// whatever failures came before the excerpt. batch16/1601 ends with
// render/thumbnailer's failure that waited 40.96s (requeues=13); the next
// excerpt, 1602, shows its next attempt: it waited 1m21.92s. From its
// count alone (14 failures in 1601) the estimate was 5ms·2^13 = 40.96s.
func TestWaitedDelayNextStep(t *testing.T) {
	k := readKey(t, "testdata/batch16/1601-virtual-kubelet-logrus-missing-secret-two-new-pods-doubling-delays-steady.log", "render/thumbnailer")
	next, err := os.ReadFile("testdata/batch16/1602-virtual-kubelet-logrus-recovery-delete-forgetting-uid-key-shutdown.log")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`delayedViaRateLimit=(\S+) error="failed to sync pod \\"render/thumbnailer\\"`).FindSubmatch(next)
	if m == nil {
		t.Fatal("1602 has no failure of render/thumbnailer that states its wait")
	}
	waited, err := time.ParseDuration(string(m[1]))
	if err != nil {
		t.Fatal(err)
	}
	if k.Delay.Duration != waited || k.DelaySource != api.SourceWaited || !k.Estimated {
		t.Errorf("1601 render/thumbnailer: delay %v (%s, estimated %v); want %v, what its next attempt waited (1602), from source %q, estimated",
			k.Delay.Duration, k.DelaySource, k.Estimated, waited, api.SourceWaited)
	}
	if k.DelayWords != "delayedViaRateLimit=40.96s" {
		t.Errorf("delay words %q; want the field of its last failure, delayedViaRateLimit=40.96s", k.DelayWords)
	}
}

// TestWaitedDelayRetryAfterTheExcerpt: 1602's three keys each fail once
// in the excerpt, their attempts having waited 1m21.92s: their retries,
// 2m43.84s after, fall past its last line (08:35:21), so they are backing
// off, not "unknown" as a 5ms estimate from one failure made them.
func TestWaitedDelayRetryAfterTheExcerpt(t *testing.T) {
	k := readKey(t, "testdata/batch16/1602-virtual-kubelet-logrus-recovery-delete-forgetting-uid-key-shutdown.log", "ledger-audit/journal-writer")
	want := 2*time.Minute + 43840*time.Millisecond
	at := time.Date(2026, 12, 7, 8, 34, 15, 0, time.UTC)
	if k.State != api.StateBackoff || k.Delay.Duration != want || !k.NextRetryAt.Equal(at.Add(want)) || k.Failures != 1 {
		t.Errorf("ledger-audit/journal-writer: %s, delay %v, next retry %v, %d failures; want backoff, %v, at %v, 1 (the count is the excerpt's)",
			k.State, k.Delay.Duration, k.NextRetryAt, k.Failures, want, at.Add(want))
	}
}

// TestWaitedDelayFields: only the field that names the queue's wait is
// read, and only as a Go duration above zero; a duration field of another
// name is the attempt's own time (took=, duration=, elapsed=), no delay.
func TestWaitedDelayFields(t *testing.T) {
	const head = `time="2026-12-07T08:34:44Z" level=warning msg="requeuing \"render/thumbnailer\" due to failed sync" error="secret \"cdn-token\" not found" key=render/thumbnailer `
	for _, c := range []struct {
		fields string
		want   time.Duration
	}{
		{"delayedViaRateLimit=1m21.92s requeues=14", 81920 * time.Millisecond},
		{"delayedViaRateLimit=5ms", 5 * time.Millisecond},
		{"took=1m21.92s", 0},
		{"duration=2s", 0},
		{"elapsed=40.96s delay=3s", 0},
		{"delayedViaRateLimit=0s", 0},
		{"delayedViaRateLimit=-5ms", 0},
		{"delayedViaRateLimit=soon", 0},
		{"delayedViaRateLimit=", 0},
	} {
		r, ok := Parse([]byte(head+c.fields), time.Date(2026, 12, 7, 9, 0, 0, 0, time.UTC))
		if !ok || r.Name != "thumbnailer" {
			t.Errorf("%s: not read as the key's failure (ok %v, %+v)", c.fields, ok, r)
			continue
		}
		if r.Waited != c.want || r.RetryIn != 0 {
			t.Errorf("%s: waited %v, retry in %v; want waited %v, no stated retry", c.fields, r.Waited, r.RetryIn, c.want)
		}
	}
	// Twice the wait, up to the limiter's cap.
	if got := DefaultLimiter.afterWaited(655360 * time.Millisecond); got != DefaultLimiter.MaxDelay {
		t.Errorf("after a 10m55.36s wait: %v; want the cap %v", got, DefaultLimiter.MaxDelay)
	}
}
