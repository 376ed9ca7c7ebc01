package ui

import "testing"

// The retry dialog warns of the token bucket as the forget dialog does: a
// retry resets the per-item count, not the bucket, so a retry during an
// outage that fails again waits what the bucket decides (about 60ms on the
// outage controller's nearly empty bucket, 10s once it owes tokens), not
// the base delay.
func TestRetryWordsPerLimiter(t *testing.T) {
	checkDialogWords(t, []dialogWordsCase{
		{"per-item exponential only", []string{"j", "j", "j", "r"}, "Its failure count goes back to 0 and it is requeued at once", "bucket", "demo/naive-00001"},
		{"exponential chose, bucket in the limiter", []string{"j", "r"}, "if it fails again, it waits about 60ms: the token bucket decides, not the failure count", "base delay", "demo/outage-00003"},
		{"the bucket chose the delay", []string{"j", "j", "r"}, "its delay came from the token bucket, which a retry does not reset: if it fails again, it waits about 60ms", "", "demo/outage-00042"},
		{"bulk on a bucketed controller", []string{"tab", "tab", "R"}, "A retry does not reset a token bucket: a next failure waits about 60ms: the token bucket decides", "", ""},
		{"bulk on a per-item controller", []string{"tab", "R"}, "requeued spread evenly", "bucket", ""},
	})
}
