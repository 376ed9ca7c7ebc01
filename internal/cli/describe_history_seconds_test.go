package cli

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// TestHistoryKeepsTheLogsPrecision: a log that dates its lines to the
// second (controller-runtime's default RFC 3339 times, the demo's --log)
// printed "16:33:25.000" eight times over, milliseconds it never had, as
// if the attempts had been simultaneous; its times print as it wrote them.
// An endpoint's, to the microsecond, keep their milliseconds.
func TestHistoryKeepsTheLogsPrecision(t *testing.T) {
	at := time.Date(2026, 12, 7, 16, 33, 25, 0, time.UTC)
	seconds := []api.Attempt{{At: at, Outcome: api.OutcomeError}, {At: at.Add(time.Second), Outcome: api.OutcomeError}}
	var b bytes.Buffer
	printHistory(&b, seconds, 0)
	if out := b.String(); !strings.Contains(out, "\n  16:33:25   ") || strings.Contains(out, ".000") {
		t.Errorf("a log dated to the second: history\n%s\nwant its times as 16:33:25, no .000", out)
	}
	micros := []api.Attempt{{At: at.Add(353 * time.Millisecond), Outcome: api.OutcomeError}, {At: at.Add(time.Second), Outcome: api.OutcomeError}}
	b.Reset()
	printHistory(&b, micros, 0)
	if out := b.String(); !strings.Contains(out, "\n  16:33:25.353   ") || !strings.Contains(out, "\n  16:33:26.000   ") {
		t.Errorf("an endpoint's times: history\n%s\nwant them to the millisecond", out)
	}
}
