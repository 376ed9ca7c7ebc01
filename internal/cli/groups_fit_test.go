package cli

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// TestErrorGroupsFitATerminal: get --group-by error on the demo, on an
// 80-column terminal, wrapped every row over three lines (MESSAGE cut to
// 60 runes, then EXAMPLES). Fitted, no line passes 80 cells: EXAMPLES and
// FIRST SEEN are left out, the message keeps its cause; -o wide and a pipe
// get every column.
func TestErrorGroupsFitATerminal(t *testing.T) {
	now := time.Date(2026, 12, 7, 10, 58, 0, 0, time.UTC)
	l := &api.ErrorGroupList{ServerTime: now, Groups: []api.ErrorGroup{
		{Controller: "outage", Count: 100, Class: api.ClassTransient, FirstSeen: now.Add(-10 * time.Second), LastSeen: now,
			Message:  "sync with inventory API: PUT https://inventory.demo.svc/v1/items/outage-00000: 503 Service Unavailable",
			Examples: []string{"demo/outage-00000", "demo/outage-00001", "demo/outage-00002"}},
		{Controller: "wellbehaved", Count: 20, Class: api.ClassPermanent, FirstSeen: now.Add(-13 * time.Minute), LastSeen: now.Add(-13 * time.Minute),
			Message:  "terminal error: invalid spec: spec.storageClass must be set",
			Examples: []string{"demo/wellbehaved-00000", "demo/wellbehaved-00001", "demo/wellbehaved-00002"}},
	}}
	defer screenWidthForTest(80)()
	var b bytes.Buffer
	printErrorGroups(&b, l, false)
	out := b.String()
	if n := strings.Count(out, "\n"); n != 3 {
		t.Errorf("%d lines, want a header and a line a group:\n%s", n, out)
	}
	wantWithin(t, out, 80)
	if strings.Contains(out, "EXAMPLES") || !strings.Contains(out, "LAST SEEN") || !strings.Contains(out, "Unavailable\n") {
		t.Errorf("fitted:\n%s\nwant EXAMPLES left out, each message's end kept", out)
	}
	b.Reset()
	printErrorGroups(&b, l, true)
	if !strings.Contains(b.String(), "EXAMPLES") || !strings.Contains(b.String(), l.Groups[0].Message) {
		t.Errorf("-o wide on a terminal:\n%s\nwant every column, the message whole", b.String())
	}
}
