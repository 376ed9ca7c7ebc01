package explain_test

import (
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
)

func TestNextRetryText(t *testing.T) {
	tests := []struct {
		name string
		key  api.Key
		want string
	}{
		{"backoff", api.Key{State: api.StateBackoff, NextRetryAt: at(4200 * time.Millisecond)}, "4s"},
		{"backoff, due", api.Key{State: api.StateBackoff, NextRetryAt: at(-243 * time.Microsecond)}, "due"},
		{"scheduled, due now", api.Key{State: api.StateScheduled, NextRetryAt: explainNow}, "due"},
		{"queued", api.Key{State: api.StateQueued, NextRetryAt: at(-time.Second)}, "ready"},
		{"running: elapsed, not a countdown", api.Key{State: api.StateRunning, StartedAt: at(-2600 * time.Millisecond), NextRetryAt: at(time.Second)}, "running 2s"},
		{"running, start unknown", api.Key{State: api.StateRunning}, "-"},
		{"idle", api.Key{State: api.StateIdle}, "-"},
		{"failed", api.Key{State: api.StateFailed, NextRetryAt: at(time.Second)}, "-"},
	}
	for _, tt := range tests {
		if got := explain.NextRetryText(tt.key, explainNow); got != tt.want {
			t.Errorf("%s: NextRetryText = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestNextRetryCompact: the narrow column's variant differs only for a
// running key, and neither counts down from an unknown server clock.
func TestNextRetryCompact(t *testing.T) {
	tests := []struct {
		name          string
		key           api.Key
		now           time.Time
		text, compact string
	}{
		{"backoff", api.Key{State: api.StateBackoff, NextRetryAt: at(4200 * time.Millisecond)}, explainNow, "4s", "4s"},
		{"backoff, server clock unknown", api.Key{State: api.StateBackoff, NextRetryAt: at(time.Second)}, time.Time{}, "-", "-"},
		{"queued", api.Key{State: api.StateQueued}, explainNow, "ready", "ready"},
		{"running", api.Key{State: api.StateRunning, StartedAt: at(-2600 * time.Millisecond)}, explainNow, "running 2s", "2s"},
		{"running, start unknown", api.Key{State: api.StateRunning}, explainNow, "-", "-"},
		{"idle", api.Key{State: api.StateIdle}, explainNow, "-", "-"},
	}
	for _, tt := range tests {
		if got := explain.NextRetryText(tt.key, tt.now); got != tt.text {
			t.Errorf("%s: NextRetryText = %q, want %q", tt.name, got, tt.text)
		}
		if got := explain.NextRetryCompact(tt.key, tt.now); got != tt.compact {
			t.Errorf("%s: NextRetryCompact = %q, want %q", tt.name, got, tt.compact)
		}
	}
}
