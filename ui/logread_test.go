package ui

import (
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// TestHeaderSaysWhatTheLogRead: for a log source, the first header line
// says how many lines were read, the records by dialect, the failure lines
// that could not be read and those without a time.
func TestHeaderSaysWhatTheLogRead(t *testing.T) {
	m := newModel(context.Background(), Options{Clock: fixedClock})
	m = send(t, m, tea.WindowSizeMsg{Width: 200, Height: 30})
	ov := fixedOverview()
	ov.Replicas[0].LogRead = &api.LogRead{Lines: 1234, Recognised: map[string]int{"Flux (JSON)": 3, "controller-runtime (JSON)": 120},
		Unreadable: 4, Example: `{"msg":"Reconciler error"}`, Untimed: 2}
	m = send(t, m, refreshedMsg{seq: m.top.seq, overview: ov, page: fixedPage(m.top.rows()), fetchedAt: t0})
	first, _, _ := strings.Cut(screen(m), "\n")
	want := "log 1234 lines, Flux (JSON) 3, controller-runtime (JSON) 120, 4 failure lines unreadable, 2 without a time"
	if !strings.Contains(first, want) {
		t.Errorf("first header line = %q, want it to contain %q", first, want)
	}

	ov.Replicas[0].LogRead = &api.LogRead{Lines: 10}
	m = send(t, m, refreshedMsg{seq: m.top.seq, overview: ov, page: fixedPage(m.top.rows()), fetchedAt: t0})
	if first, _, _ := strings.Cut(screen(m), "\n"); !strings.Contains(first, "log 10 lines, none recognised") {
		t.Errorf("first header line = %q, want it to say none was recognised", first)
	}
}
