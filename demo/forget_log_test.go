package demo

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// TestForgetFromLogMatchesEndpoint: a naive key forgotten through the real
// handler, whose "forgot backoff" line goes to the controllers' log as the
// demo writes it, then failing on (its pending retry comes, and the count
// restarts at 5ms): the log agrees with the endpoint on its failures, its
// reset and its next retry (within 20% of the delay), and its history shows
// the forget. Without the forget line the log would count on from before it.
func TestForgetFromLogMatchesEndpoint(t *testing.T) {
	opts := DefaultOptions()
	opts.Seed = 7
	r, srv, log := replayWithLog(t, opts, 70*time.Second)

	// The naive key with the most failures: its retry is tens of seconds off.
	var key string
	var before api.Key
	for k, v := range getKeys(t, srv, naiveName) {
		if v.State == api.StateBackoff && (v.Failures > before.Failures || v.Failures == before.Failures && k < key) {
			key, before = k, v
		}
	}
	if before.Failures < 8 {
		t.Fatalf("the most failures of a naive key is %d (%s); want a key deep in its backoff", before.Failures, key)
	}
	body := `{"controller":"` + naiveName + `","keys":["` + key + `"],"user":"alice","reason":"storage class created"}`
	resp, err := http.Post(srv.URL+api.DefaultPrefix+"v1/forget", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("forget: %d", resp.StatusCode)
	}
	if !strings.Contains(log.String(), `"msg":"forgot backoff"`) {
		t.Fatalf("no forget line in the controllers' log:\n%s", log.String())
	}
	// Past the pending retry, and long enough for the count to climb again.
	r.Advance(before.NextRetryAt.Sub(r.Clock.Now()) + 20*time.Second)
	want := getKeys(t, srv, naiveName)[key]
	if want.LastReset == nil || want.Failures == 0 || want.State != api.StateBackoff {
		t.Fatalf("endpoint: %s, %d failures, reset %+v; want a count restarted by the forget and climbing (it had %d)", want.State, want.Failures, want.LastReset, before.Failures)
	}

	d, err := readReplayLog(t, r, log).Key(naiveName, key)
	if err != nil {
		t.Fatal(err)
	}
	got := d.Key
	t.Logf("%s: endpoint %d failures, retry %v (%v); log %d, retry %v (%v)", key, want.Failures, want.NextRetryAt, want.Delay.Duration, got.Failures, got.NextRetryAt, got.Delay.Duration)
	if got.State != want.State || got.Failures != want.Failures {
		t.Errorf("log: %s after %d failures; endpoint: %s after %d", got.State, got.Failures, want.State, want.Failures)
	}
	if off := got.NextRetryAt.Sub(want.NextRetryAt).Abs(); off > want.Delay.Duration/5 {
		t.Errorf("next retry %s (delay %v) in the log, %s (delay %v) on the endpoint: %v apart, more than 20%% of the delay",
			got.NextRetryAt.Format(time.TimeOnly), got.Delay.Duration, want.NextRetryAt.Format(time.TimeOnly), want.Delay.Duration, off)
	}
	if r := got.LastReset; r == nil || r.By != api.ResetForget || r.Failures != before.Failures || r.User != want.LastReset.User || !r.At.Equal(want.LastReset.At.Truncate(time.Second)) {
		t.Errorf("log's last reset %+v; want the forget of %d failures by %s at %v", r, before.Failures, want.LastReset.User, want.LastReset.At)
	}
	forgotten := 0
	for _, a := range got.History {
		if a.Outcome == api.OutcomeForgotten && a.Trigger == api.TriggerForget && a.Reason == "storage class created" {
			forgotten++
		}
	}
	if forgotten != 1 {
		t.Errorf("log's history has %d forgotten attempts; want the one forget: %+v", forgotten, got.History)
	}
	if !got.FirstFailureAt.Equal(before.FirstFailureAt.Truncate(time.Second)) {
		t.Errorf("log: failing since %v; want since %v as before the forget (a forget restarts the count, not the streak)", got.FirstFailureAt, before.FirstFailureAt)
	}
}
