package logs

import "github.com/kubectl-backoff/kubectl-backoff/instrument/api"

// Classify says whether an error message looks transient (retrying can fix
// it), permanent (it cannot), or unknown: a log line has only the error's
// text, not its chain, so the class is read from its words, as the
// instrument reads an error it has no type for (api.ClassifyText). Terminal
// errors are permanent whatever they say: controller-runtime will not retry
// them.
func Classify(msg string, terminal bool) string {
	if terminal {
		return api.ClassPermanent
	}
	return api.ClassifyText(msg)
}

// classCache remembers the class of the error messages a log repeats: a
// controller's keys fail with a few messages, many times over, and
// classifying one reads its words against every word list. Bounded, as
// the store is: past classCacheBytes of messages (or classCacheLen of
// them) it starts over.
type classCache struct {
	m     map[string]string
	bytes int
	// last is the message asked last, and its class: a key's streak
	// repeats one (the interner's string: compared to itself).
	last, lastClass string
}

const (
	classCacheBytes = 1 << 20
	classCacheLen   = 4096
)

// of is Classify(msg, terminal).
func (c *classCache) of(msg string, terminal bool) string {
	if terminal {
		return Classify(msg, true)
	}
	if msg == c.last && c.lastClass != "" {
		return c.lastClass
	}
	class, ok := c.m[msg]
	if !ok {
		class = Classify(msg, false)
		if c.m == nil || c.bytes+len(msg) > classCacheBytes || len(c.m) >= classCacheLen {
			c.m, c.bytes = make(map[string]string, 64), 0
		}
		c.m[msg] = class
		c.bytes += len(msg)
	}
	c.last, c.lastClass = msg, class
	return class
}
