package text

import (
	"fmt"
	"time"
)

// FormatDuration formats a duration as people read it, the one way `get`,
// `describe` and the UI all print one: "250µs", "5ms", "1.3s" (tenths only
// under 10s), "12s", "4m12s", "2h5m", "3d4h", "5y89d"; "0s" for none.
//
// Its units are not padded ("1m4s", not "1m04s"), as kubectl's AGE and Go's
// time.Duration write them, and so a controller's log: "1m04s" beside a
// log's quoted "Retrying in 1m4s" read as two formats.
//
// It rounds to the unit it shows, and picks the unit after rounding, so
// 9.96s reads "10s", never "10.0s", and 59.7s reads "1m0s".
func FormatDuration(d time.Duration) string {
	if d <= 0 {
		return "0s"
	}
	for _, u := range durationUnits {
		if r := d.Round(u.precision); r < u.below {
			return u.format(r)
		}
	}
	return days(d.Round(time.Hour))
}

// days is a span of a day or more, to the hour: "3d4h"; past a year, in
// years and days as kubectl's AGE says it (apimachinery's
// duration.HumanDuration: 365-day years, "5y89d", years alone past eight),
// not "1914d17h". kubectl starts years at two; a year of days is already
// more than a reader counts.
func days(r time.Duration) string {
	const day, year = 24 * time.Hour, 365 * 24 * time.Hour
	switch y, dy := r/year, r%year/day; {
	case y == 0:
		return fmt.Sprintf("%dd%dh", r/day, r%day/time.Hour)
	case y >= 8 || dy == 0:
		return fmt.Sprintf("%dy", y)
	default:
		return fmt.Sprintf("%dy%dd", y, dy)
	}
}

// durationUnits are FormatDuration's units, smallest first: a duration takes
// the first whose range holds it once rounded to that unit's precision.
var durationUnits = []struct {
	precision, below time.Duration
	format           func(r time.Duration) string
}{
	{time.Nanosecond, time.Microsecond, func(r time.Duration) string { return fmt.Sprintf("%dns", r) }},
	{time.Microsecond, time.Millisecond, func(r time.Duration) string { return fmt.Sprintf("%dµs", r/time.Microsecond) }},
	{time.Millisecond, time.Second, func(r time.Duration) string { return fmt.Sprintf("%dms", r/time.Millisecond) }},
	{100 * time.Millisecond, 10 * time.Second, func(r time.Duration) string {
		return fmt.Sprintf("%d.%ds", r/time.Second, r%time.Second/(100*time.Millisecond))
	}},
	{time.Second, time.Minute, func(r time.Duration) string { return fmt.Sprintf("%ds", r/time.Second) }},
	{time.Second, time.Hour, func(r time.Duration) string {
		return fmt.Sprintf("%dm%ds", r/time.Minute, r%time.Minute/time.Second)
	}},
	{time.Minute, 24 * time.Hour, func(r time.Duration) string {
		return fmt.Sprintf("%dh%dm", r/time.Hour, r%time.Hour/time.Minute)
	}},
}

// FormatSeconds formats a span a screen counts second by second — the time
// left before something, or the time since — the one way countdowns and ages
// read in `get`, `describe` and the UI: whole seconds at most ("12s",
// "4m12s", "2h5m", "1d1h"), rounded down, and "<1s" under a second.
// Rounded down, a countdown never says more is left than is (59.6s reads
// "59s", not "1m0s"); in whole seconds, a screen redrawn once a second
// never shows tenths already gone. A measured duration (a reconcile took
// 21µs) is FormatDuration's.
func FormatSeconds(d time.Duration) string {
	if d < time.Second {
		return "<1s"
	}
	for _, u := range durationUnits {
		if u.precision < time.Second {
			continue // finer than a countdown may claim
		}
		if r := d.Truncate(u.precision); r < u.below {
			return u.format(r)
		}
	}
	return days(d.Truncate(time.Hour))
}

// Countdown is the time left until t at now, as FormatSeconds writes it:
// "4m12s", "<1s", or "due" once t has come; "-" when there is no t, or no
// now (the server's clock not yet read: a countdown from the viewer's own
// clock would be wrong by the skew between the two).
func Countdown(t, now time.Time) string {
	switch {
	case t.IsZero(), now.IsZero():
		return "-"
	case !t.After(now):
		return "due"
	}
	return FormatSeconds(t.Sub(now))
}

// Ago is how long before now t was: "12s ago"; "just now" for a t less
// than a second before now, or not before it (a clock a little ahead of
// the server's); "-" when there is no t. A recent time has that one
// wording everywhere: FormatSeconds' "<1s" would make it "<1s ago" a
// moment earlier than "just now" (--group-by error's LAST SEEN said one,
// a log's note the other), and "<1s ago" cannot say a time ahead of now.
func Ago(t, now time.Time) string {
	switch {
	case t.IsZero():
		return "-"
	case now.Sub(t) < time.Second:
		return "just now"
	}
	return FormatSeconds(now.Sub(t)) + " ago"
}
