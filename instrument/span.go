package instrument

import "time"

// span is a non-negative duration in four bytes, for the history a key keeps
// (a full history is 16 attempts of 100,000 keys): two bits say the unit, 30
// the count. Nanoseconds up to 1.07 s, microseconds up to 17.9 min (every
// delay client-go's exponential limiter chooses, up to its 1000 s cap, is
// exact), milliseconds up to 12.4 days, seconds beyond, saturating at 34
// years. The delay a key waits now is kept exactly, in the entry.
type span uint32

const (
	spanUnitShift = 30
	spanMax       = span(1)<<spanUnitShift - 1
)

// spanUnits are the units, finest first.
var spanUnits = [...]time.Duration{time.Nanosecond, time.Microsecond, time.Millisecond, time.Second}

// spanOf encodes d in the finest unit that holds it, rounding down.
func spanOf(d time.Duration) span {
	if d <= 0 {
		return 0
	}
	if d <= time.Duration(spanMax) {
		return span(d) // nanoseconds, unit 0: no division
	}
	for u, unit := range spanUnits {
		if n := d / unit; n <= time.Duration(spanMax) {
			return span(u)<<spanUnitShift | span(n)
		}
	}
	return span(len(spanUnits)-1)<<spanUnitShift | spanMax
}

// duration decodes s.
func (s span) duration() time.Duration {
	return time.Duration(s&spanMax) * spanUnits[s>>spanUnitShift]
}
