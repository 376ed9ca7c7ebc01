package logs

import (
	"fmt"
	"strings"
	"testing"
)

// TestClassCacheIsClassify: the cache gives Classify's answer for every
// message, repeated or not, terminal or not, and stays bounded.
func TestClassCacheIsClassify(t *testing.T) {
	msgs := []string{
		"dial tcp 10.0.0.7:443: connect: connection refused",
		"terminal error: spec.size: Invalid value: -1",
		"configmaps \"x\" not found",
		"something odd",
		strings.Repeat("x", maxErrorBytes) + " connection refused",
	}
	var c classCache
	for i := range 3 * classCacheLen {
		msg := msgs[i%len(msgs)]
		if i%7 == 0 {
			msg = fmt.Sprintf("%s #%d", msg, i) // a message seen once
		}
		terminal := i%5 == 0
		if got, want := c.of(msg, terminal), Classify(msg, terminal); got != want {
			t.Fatalf("of(%.40q, %v) = %s; Classify says %s", msg, terminal, got, want)
		}
		if len(c.m) > classCacheLen || c.bytes > classCacheBytes {
			t.Fatalf("cache holds %d messages, %d bytes; bounds %d, %d", len(c.m), c.bytes, classCacheLen, classCacheBytes)
		}
	}
}
