package explain

import (
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// A key's cells, as top's table and get print them, from one function.
func TestKeyRow(t *testing.T) {
	now := time.Date(2026, 12, 3, 10, 0, 0, 0, time.UTC)
	backoff := api.Key{Controller: "naive", Key: "demo/naive-00001", State: api.StateBackoff,
		Failures: 17, TotalFailures: 20, NextRetryAt: now.Add(4*time.Minute + 12*time.Second), Delay: metav1.Duration{Duration: 5 * time.Minute},
		DelaySource: api.SourceItemExponential, FirstFailureAt: now.Add(-66 * time.Second),
		LastError: &api.ErrorRecord{Message: "dial tcp 10.0.0.7:443:\n connect: connection refused", Class: api.ClassTransient, At: now.Add(-time.Second)}}
	r := NewKeyRow(&backoff, "demo/ctrl-0", now)
	for _, c := range []struct{ name, got, want string }{
		{"State", r.State, "backoff"},
		{"Failures", r.Failures, "17"},
		{"Total", r.Total, "20"},
		{"NextRetry", r.NextRetry, "4m12s"},
		{"Delay", r.Delay, "5m0s"},
		{"Source", r.Source, api.SourceItemExponential},
		{"FailingFor", r.FailingFor, "1m6s"},
		{"LastEvent", r.LastEvent, "-"},
		{"Class", r.Class, api.ClassTransient},
		{"Error(0)", r.Error(0), "dial tcp 10.0.0.7:443: connect: connection refused"},
		{"Error(20)", r.Error(20), text.OneLine(backoff.LastError.Message, 20)},
	} {
		if c.got != c.want {
			t.Errorf("%s = %q, want %q", c.name, c.got, c.want)
		}
	}
	if r.Running {
		t.Error("a key in backoff is not running")
	}

	// A sampled log's key: its counts are lower bounds, said in the cells.
	under := backoff
	under.Undercounted = true
	if r := NewKeyRow(&under, "", now); r.Failures != "17+" || r.Total != "20+" {
		t.Errorf("undercounted key's failures %q, total %q; want 17+ and 20+", r.Failures, r.Total)
	}

	running := api.Key{Controller: "naive", Key: "demo/b", State: api.StateRunning, StartedAt: now.Add(-4 * time.Second)}
	r = NewKeyRow(&running, "", now)
	if !r.Running || r.RunningFor != 4*time.Second || r.NextRetry != "running 4s" || r.Delay != "-" || r.Source != "-" || r.HasError || r.Error(0) != "" || r.Class != "-" {
		t.Errorf("running key's row = %+v", r)
	}
}

// A key counted only through Requeue: true has a failure and no error:
// its error cell says why, not nothing beside FAILS 1.
func TestKeyRowRequeuedWithoutError(t *testing.T) {
	now := time.Date(2026, 12, 3, 10, 0, 0, 0, time.UTC)
	k := api.Key{Controller: "c", Key: "ns/r", State: api.StateBackoff, Failures: 1, Requeued: true, NextRetryAt: now.Add(time.Second)}
	r := NewKeyRow(&k, "", now)
	if got := r.Error(0); got != RequeuedNoError {
		t.Errorf("Error(0) = %q, want %q", got, RequeuedNoError)
	}
	k.LastError = &api.ErrorRecord{Message: "boom"}
	if got := NewKeyRow(&k, "", now).Error(0); got != "boom" {
		t.Errorf("with an error: Error(0) = %q, want the error", got)
	}
}
