package logs

import (
	"context"
	"strings"
	"testing"
	"time"

	clocktesting "k8s.io/utils/clock/testing"
)

// TestDialectNameFirstKeyAndQuotedError: a dialect file's regexp may give
// a key written name first in name and namespace groups, and an error
// group that is one Go-quoted string is read unquoted; a retry group is
// the stated next retry (the kubelet dialect's three, in a file's words).
func TestDialectNameFirstKeyAndQuotedError(t *testing.T) {
	ds, err := parseDialects("gadget.yaml", []byte(`dialects:
- name: gadget
  controller: gadget
  lines:
  - regexp: 'gadget (?P<name>[a-z0-9-]+)\.(?P<namespace>[a-z0-9-]+) failed, again in (?P<retry>\S+): (?P<error>.+)$'
    means: failure
`))
	if err != nil {
		t.Fatal(err)
	}
	log := `E1203 10:00:00.000000       1 gadget.go:10] gadget g1.team-a failed, again in 4s: "quota \"q\" exceeded"` + "\n"
	s := NewStore(Options{Clock: clocktesting.NewFakePassiveClock(time.Date(2026, 12, 3, 10, 0, 1, 0, time.UTC)), Dialects: ds})
	if _, _, err := s.Read(context.Background(), strings.NewReader(log)); err != nil {
		t.Fatal(err)
	}
	k, err := s.Key("gadget", "team-a/g1")
	if err != nil {
		t.Fatal(err)
	}
	if k.LastError.Message != `quota "q" exceeded` || k.Delay.Duration != 4*time.Second || k.DelaySource != "stated" {
		t.Errorf("g1: %q, delay %v (%s); want quota \"q\" exceeded, 4s stated", k.LastError.Message, k.Delay.Duration, k.DelaySource)
	}
}
