package api

import "testing"

// TestForgets: a controller accepts forget only with the limiter decorator
// and on an endpoint that is not read-only.
func TestForgets(t *testing.T) {
	for _, tt := range []struct {
		c    Capabilities
		want bool
	}{
		{Capabilities{CanForget: true}, true},
		{Capabilities{CanForget: true, CanRequeue: true}, true},
		{Capabilities{CanForget: true, ReadOnly: true}, false},
		{Capabilities{ReadOnly: true}, false},
		{Capabilities{}, false},
	} {
		if got := tt.c.Forgets(); got != tt.want {
			t.Errorf("%+v.Forgets() = %v, want %v", tt.c, got, tt.want)
		}
	}
}
