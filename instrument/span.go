package instrument

import "time"

// span is a non-negative duration in four bytes, for the history a key keeps
// (a full history is 16 attempts of 100,000 keys): microseconds up to 35
// minutes, milliseconds beyond that up to 24 days, where it saturates. A
// reconcile's duration needs no more; delays, which the explanation compares
// exactly, stay in nanoseconds.
type span uint32

const (
	spanMillis = span(1) << 31 // set: the value counts milliseconds
	spanMax    = spanMillis - 1
)

// spanOf encodes d, rounding down to the unit.
func spanOf(d time.Duration) span {
	switch {
	case d <= 0:
		return 0
	case d/time.Microsecond <= time.Duration(spanMax):
		return span(d / time.Microsecond)
	case d/time.Millisecond <= time.Duration(spanMax):
		return spanMillis | span(d/time.Millisecond)
	}
	return spanMillis | spanMax
}

// duration decodes s.
func (s span) duration() time.Duration {
	if s&spanMillis != 0 {
		return time.Duration(s&^spanMillis) * time.Millisecond
	}
	return time.Duration(s) * time.Microsecond
}
