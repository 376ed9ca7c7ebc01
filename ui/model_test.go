package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/view"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/widget"
)

// The countdown runs on the server's clock plus the local time elapsed
// since the fetch, whatever the local clock says in absolute terms.
func TestCountdownUsesServerClock(t *testing.T) {
	local := time.Date(1999, 1, 1, 0, 0, 0, 0, time.UTC) // far from the server's t0
	now := local
	m := newModel(context.Background(), view.Options{Clock: func() time.Time { return now }})
	m = send(t, m, view.RefreshedMsg{Seq: m.tbl().Seq, Overview: fixedOverview(), Page: fixedPage(5), FetchedAt: local})
	if s := screen(m); !strings.Contains(s, "4m12s") {
		t.Fatalf("want the naive key due in 4m12s:\n%s", s)
	}
	now = local.Add(12 * time.Second)
	if s := screen(m); !strings.Contains(s, " 4m0s ") {
		t.Errorf("12s later, want 4m0s:\n%s", s)
	}
}

func TestReadOnlyDisablesActions(t *testing.T) {
	ov := fixedOverview()
	for i := range ov.Controllers {
		ov.Controllers[i].Capabilities = api.Capabilities{ReadOnly: true}
	}
	m := newModel(context.Background(), view.Options{Clock: fixedClock})
	m = send(t, m, view.RefreshedMsg{Seq: m.tbl().Seq, Overview: ov, Page: fixedPage(5), FetchedAt: t0})
	m = send(t, m, press("f"), press("r"), press("R"))
	if m.dialog() != nil {
		t.Fatalf("an action opened a confirmation on a read-only endpoint")
	}
	help := screen(send(t, m, press("?")))
	if strings.Contains(help, "forget key") || strings.Contains(help, "retry now") {
		t.Errorf("help lists forget/retry on a read-only endpoint:\n%s", help)
	}
	if !strings.Contains(help, "read-only") {
		t.Errorf("help does not say the endpoint is read-only")
	}
}

// The filter's three states: typing, applied (esc clears), unfiltered.
func TestFilterStates(t *testing.T) {
	m := loaded(t, 120, 30)
	m = send(t, m, press("/"))
	if m.tbl().Filter.State != widget.Filtering {
		t.Fatalf("after /: state %v, want filtering", m.tbl().Filter.State)
	}
	for _, r := range "~out.*" {
		m = send(t, m, press(string(r)))
	}
	if e, a := "~out.*", m.tbl().Filter.Applied; e != a {
		t.Errorf("applied while typing: want %q, got %q", e, a)
	}
	m = send(t, m, press("enter"))
	if m.tbl().Filter.State != widget.FilterApplied || m.tbl().Query().Q != "~out.*" {
		t.Errorf("after enter: state %v, query %+v", m.tbl().Filter.State, m.tbl().Query())
	}
	m = send(t, m, press("esc"))
	if m.tbl().Filter.State != widget.Unfiltered || m.tbl().Query().Q != "" {
		t.Errorf("after esc: state %v, query %+v", m.tbl().Filter.State, m.tbl().Query())
	}
}

// A bulk retry counts its keys with a dry run before asking.
func TestBulkRetryConfirmation(t *testing.T) {
	m := send(t, loaded(t, 120, 30), press("g"), fixedGroups(), press("r"))
	if m.dialog() == nil || !m.dialog().Act.Bulk() || m.dialog().Count != -1 {
		t.Fatalf("want a bulk confirmation awaiting its count, got %+v", m.dialog())
	}
	reqs := m.dialog().Act.Requests()
	if len(reqs) != 1 || reqs[0].Controller != "outage" || !reqs[0].Requeue || reqs[0].Spread.Duration != widget.BulkSpread || reqs[0].Filter == nil {
		t.Errorf("requests: %+v", reqs)
	}
	m = send(t, m, dryRunMsg{id: m.dialog().ID, count: 842})
	if s := screen(m); !strings.Contains(s, `Retry 842 keys of outage whose last error is "sync inventory: 503 Service`) || strings.Contains(s, `\"`) || !strings.Contains(s, "spread") {
		t.Errorf("the dialog does not say what will happen:\n%s", s)
	}
	m = send(t, m, press("n"))
	if m.dialog() != nil || !strings.Contains(m.status, "cancelled") {
		t.Errorf("N did not cancel: %+v %q", m.dialog(), m.status)
	}
}
