package explain

import (
	"strings"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// TestLineUnnamedController: a log whose lines name no controller has its
// keys under UnnamedController; its diagnosis, quiet keys and all, does not
// read "unknown — unknown: …" (a state beside a placeholder), but says the
// log names no controller.
func TestLineUnnamedController(t *testing.T) {
	now := time.Date(2026, 12, 7, 5, 0, 0, 0, time.UTC)
	c := api.Controller{Name: UnnamedController, Active: true, Keys: 1, Counts: map[api.State]int{api.StateUnknown: 1}}
	d := DiagnoseController(c, &api.ListSource{Kind: api.SourceLogs}, nil, now)
	line := d.Line()
	if strings.HasPrefix(line, "unknown — ") {
		t.Errorf("line %q: the placeholder reads as a state", line)
	}
	if want := "controller not named in the log — "; !strings.HasPrefix(line, want) {
		t.Errorf("line %q, want it to start %q", line, want)
	}
	named := DiagnoseController(api.Controller{Name: "widget", Active: true, Keys: 1, Counts: c.Counts}, &api.ListSource{Kind: api.SourceLogs}, nil, now)
	if !strings.HasPrefix(named.Line(), "widget — ") {
		t.Errorf("a named controller's line %q does not start with its name", named.Line())
	}
}
