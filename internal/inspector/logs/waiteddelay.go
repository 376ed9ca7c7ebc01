package logs

import "time"

// A failure line may state the delay its attempt waited in the queue, the
// rate limiter's delay after the key's previous failure: virtual-kubelet's
// queue (internal/queue/queue.go, v1.14.1) keeps When()'s result as the
// item's delayedViaRateLimit at insert (:230) and logs it on every line of
// the next attempt (:448), its successes too (batch16/1602's "Created pod
// in provider" delayedViaRateLimit=1m21.92s). It is not the next retry's
// delay: the attempt with requeues=n waited 5ms·2^n (batch16/1601), and
// its failure asks the limiter again, for twice that.

// waitedField is the field that states it; a duration field of another
// name (took=, duration=) is the attempt's own time, no delay.
const waitedField = "delayedViaRateLimit"

// waitedDelay is the delay the line's attempt waited, as its field states
// it (a Go duration, above zero); zero when it states none.
func (f *fields) waitedDelay() time.Duration { return positiveDuration(f.waited) }

// positiveDuration is s as a Go duration when it is one above zero; zero
// for none, a malformed one or one not above zero (a field's value is the
// log's, not to be trusted).
func positiveDuration(s string) time.Duration {
	if s == "" {
		return 0
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return 0
	}
	return d
}

// afterWaited is the per-item exponential's delay after a failure whose
// attempt waited d, the limiter's previous delay: the next step of its
// doubling, twice d, up to its cap (and never below d, a limiter of a
// higher cap than the one assumed).
func (l Limiter) afterWaited(d time.Duration) time.Duration {
	next := 2 * d
	if l.MaxDelay > 0 && next > l.MaxDelay {
		next = max(l.MaxDelay, d)
	}
	return next
}
