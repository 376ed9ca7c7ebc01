package text

import (
	"testing"
	"time"
)

// TestTimeOfDay: one rule for every time a person reads: the server's
// time, in UTC, whatever the zone it came in.
func TestTimeOfDay(t *testing.T) {
	paris := time.FixedZone("CET", 3600)
	at := time.Date(2026, 11, 30, 11, 2, 13, 456_000_000, paris) // 10:02:13.456 UTC
	for _, tt := range []struct{ got, want string }{
		{TimeOfDay(at), "10:02:13"},
		{TimeOfDay(at.UTC()), "10:02:13"},
		{TimeOfDay(time.Time{}), "--:--:--"},
		{TimeOfDayMillis(at), "10:02:13.456"},
		{Timestamp(at), "2026-11-30 10:02:13 UTC"},
	} {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}
