package text

import "time"

// Times a person reads are the server's: every answer carries serverTime,
// and every time in it is on the server's clock. They are written in UTC,
// never in the viewer's zone: a pod's logs, Events and this tool's output
// then read on one timeline, whoever reads them and wherever. These are the
// only formats of a time of day the CLI and the UI write.

// TimeOfDay is t's time of day in UTC, "15:04:05"; "--:--:--" for none.
func TimeOfDay(t time.Time) string {
	if t.IsZero() {
		return "--:--:--"
	}
	return t.UTC().Format("15:04:05")
}

// TimeOfDayMillis is TimeOfDay to the millisecond, "15:04:05.000", for a
// history whose attempts can be milliseconds apart.
func TimeOfDayMillis(t time.Time) string {
	if t.IsZero() {
		return "--:--:--.---"
	}
	return t.UTC().Format("15:04:05.000")
}

// Timestamp is t with its date, "2006-01-02 15:04:05 UTC", for what is read
// days later (a snapshot's time).
func Timestamp(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05 UTC") }
