package logs

import (
	"time"

	"k8s.io/utils/clock"
)

// DefaultMaxKeys bounds the keys a Store tracks, as the instrument's
// DefaultMaxKeys bounds its store.
const DefaultMaxKeys = 100_000

// Options configures a Store.
type Options struct {
	// MaxKeys bounds the tracked keys; settled keys (idle, failed, gone
	// quiet) are evicted first, least recently logged first, then the least
	// recently logged of the rest. Defaults to DefaultMaxKeys if unset.
	MaxKeys int
	// Limiter is the limiter the estimates assume. Defaults to DefaultLimiter.
	Limiter Limiter
	// Clock is the time "now" of a live stream. Defaults to the real clock.
	Clock clock.PassiveClock
	// Live says the log is being written as it is read (a follow stream, a
	// pipe): now is the clock's time. Otherwise (a saved file) now is the
	// time of the newest line, so a week-old log reads as it was.
	Live bool
	// DatedAfter, for a Live log, is how far behind the clock its newest
	// line may be when it is read and the log still be live. A pipe may
	// carry a saved log (cat old.log | ...) as well as a live one: a newest
	// line already older than this when read makes the log dated, judged
	// as of that line as a saved file is (its source's EndsAt set), until a newer line
	// arrives within DatedAfter of the clock. Judged on arrival, not at each
	// answer: a live log whose controller then goes quiet for hours stays
	// live (its keys' retries passed are unknown, not pending). Zero: a
	// Live log is always live (a TARGET's stream, whose --since says how far
	// back it starts).
	DatedAfter time.Duration
	// ExplainLines, when set, is given the reading of every line Read
	// reads that yields a record or looks like a failure (--explain-lines),
	// in the order read, from the reading goroutine.
	ExplainLines func(LineReading)
	// Dialects are read from dialect files (--dialect FILE): an in-house
	// controller's words, after the built-in dialects.
	Dialects []Dialect
	// Workers is how many goroutines parse a saved log (parallel.go): 1
	// reads it line by line, as a live log always is. Defaults to
	// GOMAXPROCS if unset.
	Workers int
}
