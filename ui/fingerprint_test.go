package ui

import (
	"regexp"
	"strings"
	"testing"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

func TestFingerprint(t *testing.T) {
	tests := []struct{ in, want string }{
		{"dial tcp 10.0.0.7:443: connect: connection refused", "dial tcp …: connect: connection refused"},
		{"dial tcp [fd00::1]:443: i/o timeout", "dial tcp …: i/o timeout"},
		{`configmaps "outage-00012" not found`, `configmaps "…" not found`},
		{"sync demo/outage-00012: 503 Service Unavailable", "sync demo/outage-…: 503 Service Unavailable"},
		{"request 9f86d081-884c-4d63-a5f1-5e2b0b3a2f11 failed after 3 attempts", "request … failed after … attempts"},
		{"object 4f2a9c0d1e7b has changed", "object … has changed"},
		{"timeout after 1.5s", "timeout after …s"},
		{"no numbers here", "no numbers here"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := fingerprint(tt.in); got != tt.want {
			t.Errorf("fingerprint(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// The filter of a fingerprint selects the messages that share it, and no other.
func TestFingerprintFilter(t *testing.T) {
	fp := fingerprint("dial tcp 10.0.0.7:443: connect: connection refused")
	q := fingerprintFilter(fp)
	re := regexp.MustCompile(strings.TrimPrefix(q, "~"))
	for msg, want := range map[string]bool{
		"dial tcp 10.0.0.9:8443: connect: connection refused": true,
		"dial tcp 10.0.0.9:8443: i/o timeout":                 false,
		"demo/widget-1":                                       false,
	} {
		if got := re.MatchString(msg); got != want {
			t.Errorf("filter %q on %q: %v, want %v", q, msg, got, want)
		}
	}
	long := strings.Repeat("x1 ", 600) + "the end of a very long message"
	if q := fingerprintFilter(fingerprint(long)); len(q) > maxFilterLen || strings.HasPrefix(q, "~") {
		t.Errorf("a too-long fingerprint gives filter of %d bytes starting %q; want a substring within %d", len(q), q[:10], maxFilterLen)
	}
}

func TestGroupErrors(t *testing.T) {
	key := func(ctl, msg string) api.Key {
		k := api.Key{Controller: ctl, State: api.StateBackoff}
		if msg != "" {
			k.LastError = &api.ErrorRecord{Message: msg}
		}
		return k
	}
	groups := groupErrors([]api.Key{
		key("a", "dial tcp 10.0.0.1:443: connection refused"),
		key("b", "dial tcp 10.0.0.2:443: connection refused"),
		key("a", "dial tcp 10.0.0.3:443: connection refused"),
		key("a", `x "y" missing`),
		key("a", ""),
	})
	if e, a := 3, len(groups); e != a {
		t.Fatalf("groups: want %d, got %d: %+v", e, a, groups)
	}
	g := groups[0]
	if g.fingerprint != "dial tcp …: connection refused" || g.count != 3 || len(g.controllers) != 2 || g.controllers[0] != (controllerCount{"a", 2}) {
		t.Errorf("largest group: got %+v", g)
	}
	if groups[1].fingerprint != noError && groups[2].fingerprint != noError {
		t.Errorf("keys without an error are not grouped as %q: %+v", noError, groups)
	}
}
