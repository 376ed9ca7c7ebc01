package text_test

import (
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

func TestFormatDuration(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want string
	}{
		{0, "0s"},
		{-time.Second, "0s"},
		{400 * time.Nanosecond, "400ns"},
		{243 * time.Microsecond, "243µs"},
		{999_600 * time.Nanosecond, "1ms"}, // rounds up into the next unit
		{1400 * time.Microsecond, "1ms"},
		{5 * time.Millisecond, "5ms"},
		{999 * time.Millisecond, "999ms"},
		{999_700 * time.Microsecond, "1.0s"},
		{1250 * time.Millisecond, "1.3s"},
		{2560 * time.Millisecond, "2.6s"},
		{5 * time.Second, "5.0s"},
		{9940 * time.Millisecond, "9.9s"},
		{9960 * time.Millisecond, "10s"}, // never "10.0s"
		{10 * time.Second, "10s"},
		{59_400 * time.Millisecond, "59s"},
		{59_700 * time.Millisecond, "1m0s"},
		{64 * time.Second, "1m4s"},            // as a log quotes it (Go's time.Duration), and kubectl's AGE
		{163_600 * time.Millisecond, "2m44s"}, // the table and describe agree
		{4*time.Minute + 12*time.Second + 400*time.Millisecond, "4m12s"},
		{1000 * time.Second, "16m40s"},
		{time.Hour, "1h0m"},
		{2*time.Hour + 5*time.Minute + 29*time.Second, "2h5m"},
		{23*time.Hour + 59*time.Minute + 40*time.Second, "1d0h"},
		{25*time.Hour + 30*time.Minute, "1d2h"},
		{3*24*time.Hour + 4*time.Hour + 10*time.Minute, "3d4h"},
	}
	for _, tt := range tests {
		if got := text.FormatDuration(tt.d); got != tt.want {
			t.Errorf("FormatDuration(%v) = %q, want %q", tt.d, got, tt.want)
		}
	}
}

// A countdown claims no more than whole seconds, rounded down: it says at
// least that much is left, so it never reads a second longer than what is
// left (59.6s is "59s", not "1m0s"), and a screen redrawn each second
// never shows tenths already gone. The last second is "<1s".
func TestFormatSeconds(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want string
	}{
		{time.Nanosecond, "<1s"},
		{100 * time.Millisecond, "<1s"},
		{868 * time.Millisecond, "<1s"},
		{999_999 * time.Microsecond, "<1s"},
		{time.Second, "1s"},
		{3900 * time.Millisecond, "3s"},
		{9960 * time.Millisecond, "9s"},
		{59_600 * time.Millisecond, "59s"},
		{time.Minute, "1m0s"},
		{4*time.Minute + 12*time.Second + 900*time.Millisecond, "4m12s"},
		{59*time.Minute + 59*time.Second + 999*time.Millisecond, "59m59s"},
		{2*time.Hour + 5*time.Minute + 59*time.Second, "2h5m"},
		{23*time.Hour + 59*time.Minute + 40*time.Second, "23h59m"},
		{25*time.Hour + 59*time.Minute, "1d1h"},
	}
	for _, tt := range tests {
		if got := text.FormatSeconds(tt.d); got != tt.want {
			t.Errorf("FormatSeconds(%v) = %q, want %q", tt.d, got, tt.want)
		}
	}
}

func TestCountdownAndAgo(t *testing.T) {
	tests := []struct {
		t                      time.Time
		wantCountdown, wantAgo string
	}{
		{time.Time{}, "-", "-"},
		{at(3*time.Minute + time.Second), "3m1s", "just now"},
		{at(80 * time.Millisecond), "<1s", "just now"},
		{textNow, "due", "just now"},
		{at(-243 * time.Microsecond), "due", "just now"}, // as for a t not before now: one wording
		{at(-999 * time.Millisecond), "due", "just now"},
		{at(-time.Second), "due", "1s ago"},
		{at(-2 * time.Second), "due", "2s ago"},
		{at(-2900 * time.Millisecond), "due", "2s ago"}, // whole seconds, rounded down
		{at(-26 * time.Hour), "due", "1d2h ago"},
	}
	for _, tt := range tests {
		if got := text.Countdown(tt.t, textNow); got != tt.wantCountdown {
			t.Errorf("Countdown(%v) = %q, want %q", tt.t, got, tt.wantCountdown)
		}
		if got := text.Ago(tt.t, textNow); got != tt.wantAgo {
			t.Errorf("Ago(%v) = %q, want %q", tt.t, got, tt.wantAgo)
		}
	}
}

var textNow = time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)

func at(d time.Duration) time.Time { return textNow.Add(d) }

// TestPastAYear: a span over a year is said in years and days, as
// kubectl's AGE says it (apimachinery's duration.HumanDuration: 365-day
// years, "5y89d"), not "1914d17h" (a five-year-old log's age).
func TestPastAYear(t *testing.T) {
	const day = 24 * time.Hour
	for _, tt := range []struct {
		d    time.Duration
		want string
	}{
		{364*day + 23*time.Hour, "364d23h"},
		{365 * day, "1y"},
		{400*day + 17*time.Hour, "1y35d"},
		{1914*day + 17*time.Hour, "5y89d"},
		{9*365*day + 3*day, "9y"}, // past eight years, kubectl gives years alone
	} {
		if got := text.FormatSeconds(tt.d); got != tt.want {
			t.Errorf("FormatSeconds(%v) = %q, want %q", tt.d, got, tt.want)
		}
		if got := text.FormatDuration(tt.d); got != tt.want {
			t.Errorf("FormatDuration(%v) = %q, want %q", tt.d, got, tt.want)
		}
	}
	now := time.Date(2026, 12, 6, 10, 0, 0, 0, time.UTC)
	if got, want := text.Ago(now.Add(-(1914*day+17*time.Hour)), now), "5y89d ago"; got != want {
		t.Errorf("Ago of a five-year-old line = %q, want %q", got, want)
	}
}
