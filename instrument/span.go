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

// spanOf encodes d in the finest unit that holds it, rounding down. Each
// unit is a case of its own, so that its division is by a constant (a
// multiply): a loop over spanUnits divides by a variable (tens of cycles), and a
// failing key's delay at client-go's cap (1000 s) takes two of them on
// every When and outcome. d/unit fits in spanMax exactly while d is below
// (spanMax+1)·unit.
func spanOf(d time.Duration) span {
	const limit = time.Duration(spanMax) + 1
	switch {
	case d <= 0:
		return 0
	case d < limit:
		return span(d) // nanoseconds, unit 0: no division
	case d < limit*time.Microsecond:
		return 1<<spanUnitShift | span(d/time.Microsecond)
	case d < limit*time.Millisecond:
		return 2<<spanUnitShift | span(d/time.Millisecond)
	case d < limit*time.Second:
		return 3<<spanUnitShift | span(d/time.Second)
	}
	return span(len(spanUnits)-1)<<spanUnitShift | spanMax
}

// duration decodes s.
func (s span) duration() time.Duration {
	return time.Duration(s&spanMax) * spanUnits[s>>spanUnitShift]
}
