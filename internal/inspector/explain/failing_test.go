package explain

import (
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

func TestFailing(t *testing.T) {
	at := func(s int) time.Time { return time.Date(2026, 11, 30, 8, 0, s, 0, time.UTC) }
	failedAt := func(st api.State, failures, s int) api.Key {
		return api.Key{State: st, Failures: failures, LastReconcileAt: at(s), LastError: &api.ErrorRecord{Message: "503", At: at(s)}}
	}
	reset := func(k api.Key, s int, by string) api.Key {
		k.LastReset = &api.Reset{At: at(s), By: by, Failures: 4}
		return k
	}
	tests := []struct {
		name string
		k    *api.Key
		want bool
	}{
		{"no key", nil, false},
		{"idle", &api.Key{State: api.StateIdle}, false},
		{"scheduled (RequeueAfter)", &api.Key{State: api.StateScheduled}, false},
		{"backing off", ptr(failedAt(api.StateBackoff, 4, 1)), true},
		{"backing off, a bucket-only limiter counts nothing", ptr(failedAt(api.StateBackoff, 0, 1)), true},
		{"a retry queued in its streak", ptr(failedAt(api.StateQueued, 4, 1)), true},
		{"failed on a terminal error at once", ptr(failedAt(api.StateFailed, 0, 1)), true},
		{"the controller gave up", ptr(reset(failedAt(api.StateFailed, 0, 1), 2, api.ResetGaveUp)), true},
		// A forget resets the count, not the failure: the retry is still to come.
		{"forgotten, its retry pending", ptr(reset(failedAt(api.StateBackoff, 0, 1), 2, api.ResetForget)), true},
		{"forgotten, then failed again", ptr(reset(failedAt(api.StateBackoff, 0, 3), 2, api.ResetForget)), true},
		{"forgotten, then failed again and counted", ptr(reset(failedAt(api.StateBackoff, 1, 3), 2, api.ResetForget)), true},
		// A forget with requeue resets the count, not the failure either.
		{"requeued by forget, waiting for its spread slot", ptr(reset(api.Key{State: api.StateBackoff, DelaySource: api.SourceSpread, FirstFailureAt: at(1), LastReconcileAt: at(1)}, 2, api.ResetForget)), true},
		{"requeued by forget, its slot came: queued", ptr(reset(api.Key{State: api.StateQueued, FirstFailureAt: at(1), LastReconcileAt: at(1)}, 2, api.ResetForget)), true},
		{"requeued by forget, running", ptr(reset(api.Key{State: api.StateRunning, FirstFailureAt: at(1), LastReconcileAt: at(1)}, 2, api.ResetForget)), true},
		{"queued, not failing", &api.Key{State: api.StateQueued, LastReconcileAt: at(1)}, false},
		{"forgotten, retried and converged", ptr(reset(api.Key{State: api.StateIdle, LastReconcileAt: at(3)}, 2, api.ResetForget)), false},
	}
	for _, tt := range tests {
		if got := Failing(tt.k); got != tt.want {
			t.Errorf("%s: Failing = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func ptr(k api.Key) *api.Key { return &k }

func TestErrorResolved(t *testing.T) {
	at := func(s int) time.Time { return time.Date(2026, 11, 30, 8, 0, s, 0, time.UTC) }
	err := &api.ErrorRecord{Message: "conflict", At: at(1)}
	tests := []struct {
		name string
		k    api.Key
		want bool
	}{
		{"succeeded since", api.Key{State: api.StateIdle, LastError: err, LastReconcileAt: at(2)}, true},
		{"a RequeueAfter since", api.Key{State: api.StateScheduled, LastError: err, LastReconcileAt: at(2)}, true},
		{"the last reconcile failed", api.Key{State: api.StateIdle, LastError: err, LastReconcileAt: at(1)}, false},
		{"backing off", api.Key{State: api.StateBackoff, Failures: 2, LastError: err, LastReconcileAt: at(2)}, false},
		{"forgotten, still failing", api.Key{State: api.StateBackoff, LastError: err, LastReconcileAt: at(1)}, false},
		{"failed", api.Key{State: api.StateFailed, LastError: err, LastReconcileAt: at(2)}, false},
		{"no error", api.Key{State: api.StateIdle, LastReconcileAt: at(2)}, false},
	}
	for _, tt := range tests {
		if got := ErrorResolved(&tt.k); got != tt.want {
			t.Errorf("%s: ErrorResolved = %v, want %v", tt.name, got, tt.want)
		}
	}
}
