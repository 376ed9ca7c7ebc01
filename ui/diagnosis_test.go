package ui

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/logs"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/view"
)

// The header's diagnosis is the selected controller's, or the worst one's
// when all are shown; the error groups, once read, name the error.
func TestDiagnosisLine(t *testing.T) {
	naive := api.ErrorGroup{Controller: "naive", Fingerprint: "spec.storageClass must be set", Message: "spec.storageClass must be set",
		Class: api.ClassPermanent, Count: 30, FirstSeen: t0.Add(-12 * time.Minute), LastSeen: t0}
	tests := []struct {
		name       string
		controller string
		groups     []api.ErrorGroup
		want       string
	}{
		{"all, counts only: the most keys in trouble", "", nil,
			"worst of 3 controllers in trouble: outage — 842 keys backing off; the token bucket is empty: retries throttled to 10/s"},
		// The first row is outage's: the label says why the rows start elsewhere (issue #23).
		{"all, with groups: a permanent error is worse than keys backing off on nothing known", "", []api.ErrorGroup{naive},
			"worst of 3 controllers in trouble (rows: longest failing first): naive — 30 keys failing for 12m0s on the same permanent error: spec.storageClass must be set"},
		{"one controller", "wellbehaved", nil,
			"wellbehaved — 20 keys failed for good: not retried until their objects change"},
		{"one controller, others' groups ignored", "outage", []api.ErrorGroup{naive},
			"outage — 842 keys backing off; the token bucket is empty: retries throttled to 10/s"},
	}
	for _, tt := range tests {
		m := loaded(t, 200, 30)
		m.setTop(func(t *view.Top) { t.Controller, t.Groups = tt.controller, tt.groups })
		if e, a := tt.want, strings.TrimRight(splitLines(screen(m))[2], " "); e != a {
			t.Errorf("%s:\nwant %q\n got %q", tt.name, e, a)
		}
	}
}

// The worst line and the first rows point at the same controller, or the
// line says why not, at every size (issue #23: outage named, naive rows
// first). The narrow screens wrap the diagnosis to two lines rather than
// cut its cause.
func TestDiagnosisAndRowsAgree(t *testing.T) {
	naive := api.ErrorGroup{Controller: "naive", Fingerprint: "spec.storageClass must be set", Message: "spec.storageClass must be set",
		Class: api.ClassPermanent, Count: 30, FirstSeen: t0.Add(-12 * time.Minute), LastSeen: t0}
	for _, sz := range [][2]int{{60, 20}, {80, 24}, {120, 30}} {
		for _, groups := range [][]api.ErrorGroup{nil, {naive}} {
			m := loaded(t, sz[0], sz[1])
			m.setTop(func(t *view.Top) { t.Groups = groups })
			lines := splitLines(screen(m))
			// The diagnosis: from line 2 to the limiters line.
			end := 3
			for !strings.HasPrefix(lines[end], "limiters ") {
				end++
			}
			if end > 4 {
				t.Fatalf("%dx%d: the diagnosis takes %d lines, want at most 2:\n%s", sz[0], sz[1], end-2, strings.Join(lines, "\n"))
			}
			diag := strings.Join(strings.Fields(strings.Join(lines[2:end], " ")), " ")
			named := "outage"
			if groups != nil {
				named = "naive"
			}
			first := m.tbl().Page.Items[0].Controller
			if !strings.Contains(diag, ": "+named+" — ") {
				t.Fatalf("%dx%d: diagnosis %q does not name %s", sz[0], sz[1], diag, named)
			}
			says := strings.Contains(diag, "(rows: longest failing first)")
			if first != named && !says {
				t.Errorf("%dx%d: the first row is %s's, the diagnosis names %s and does not say why: %q", sz[0], sz[1], first, named, diag)
			}
			if first == named && says {
				t.Errorf("%dx%d: the first row is the named controller's, yet the line explains a difference: %q", sz[0], sz[1], diag)
			}
			// The cause is on screen, not cut: the bucket's state; the
			// permanent error and the start of its message (at 60 columns
			// the message's end is what gives way).
			cause := "the token bucket is empty"
			if groups != nil {
				cause = "permanent error: spec.stor"
			}
			if !strings.Contains(diag, cause) {
				t.Errorf("%dx%d: the diagnosis %q lost its cause %q", sz[0], sz[1], diag, cause)
			}
		}
	}
}

// Help explains the header's lines that are not self-evident: the worst
// controller's diagnosis and the limiters line, with its "(1 of 3)".
func TestHelpExplainsTheHeader(t *testing.T) {
	for _, w := range []int{60, 80, 120} {
		help := helpText(send(t, loaded(t, w, 30), press("?")))
		for _, want := range []string{
			"worst of N controllers in trouble",
			"N controllers have keys in trouble",
			"tab switches",
			"limiters",
			"exp 5ms..16m40s",
			"(1 of 3)",
		} {
			if !strings.Contains(help, want) {
				t.Errorf("at %d columns help does not say %q:\n%s", w, want, help)
			}
		}
	}
}

// A key read from a live log that failed, and logged nothing since its
// retry came, is unknown: the header does not call its controller healthy
// with "none failing", but says what the log shows, styled as a warning
// and ranked above healthy. The log is cert-manager's (cert-manager#3772,
// one "re-queuing item" of NAMESPACE/INGRESS_NAME-tls at 03-15 12:33:57),
// read live at t0, months later.
func TestDiagnosisUnknownKeys(t *testing.T) {
	f, err := os.Open("../internal/inspector/logs/testdata/wild/cert-manager-3772.log")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	store := logs.NewStore(logs.Options{Live: true, Clock: clocktesting.NewFakePassiveClock(t0)})
	if _, _, err := store.Read(context.Background(), f); err != nil {
		t.Fatal(err)
	}
	m := newModel(context.Background(), view.Options{Session: inspector.InProcessSession(nil, inspector.NamedHandler{Name: "logs: stdin", Handler: store.Handler()}), Clock: fixedClock})
	m = send(t, m, tea.WindowSizeMsg{Width: 200, Height: 20})
	m = send(t, m, m.refreshTop()())
	want := "CertificateKeyManager — unknown: no failure logged since its retry for 1 key: its state is unknown (this log shows no successes)"
	if got := strings.TrimRight(splitLines(screen(m))[2], " "); got != want {
		t.Errorf("diagnosis:\nwant %q\n got %q", want, got)
	}
	if d, _, _ := m.tbl().Diagnosis(); d.Situation != explain.SituationUnknown || view.SituationRank(d.Situation) >= view.SituationRank(explain.SituationHealthy) {
		t.Errorf("situation %q ranks %d, healthy %d: want unknown, worse than healthy", d.Situation, view.SituationRank(d.Situation), view.SituationRank(explain.SituationHealthy))
	}
}

// An outage on the demo's long error (a URL in it) at 120 columns:
// the quoted error gives up its middle, so that the two lines still end
// with the bucket's state, whole (issue #30: "…retries throttled to 10/…").
func TestDiagnosisLongErrorKeepsItsEnd(t *testing.T) {
	for _, w := range []int{120} {
		diag := outageHeader(t, w)
		if !strings.Contains(diag, "retries throttled to 10/s") || !strings.Contains(diag, "503 Service Unavailable") {
			t.Errorf("%d columns: the diagnosis %q lost the bucket's state or the error's end", w, diag)
		}
	}
}

// A quoted error the header cuts in its middle is cut between its parts,
// never inside one ("PUT http…//inventory" was seen at 151 columns): at
// every width from 100 to 200 columns, the text before "…" ends at a
// break, and the text after it starts after one.
func TestDiagnosisCutsBetweenParts(t *testing.T) {
	const msg = outageError
	breaks := " /.:,-="
	cuts := 0
	for w := 100; w <= 200; w++ {
		diag := outageHeader(t, w)
		i, j := strings.Index(diag, "(sync with"), strings.Index(diag, "Unavailable)")
		if i < 0 || j < i {
			continue // not quoted whole at both ends: another rule's cut
		}
		head, tail, ok := strings.Cut(diag[i+1:j+len("Unavailable")], "…")
		if !ok {
			continue
		}
		cuts++
		// A wrap at the cut's space may have joined head and tail by one.
		head, tail = strings.TrimSpace(head), strings.TrimSpace(tail)
		rest, found := strings.CutPrefix(msg, head)
		if !found || !strings.HasSuffix(rest, tail) {
			t.Errorf("%d columns: %q…%q are not the message's ends", w, head, tail)
			continue
		}
		if !strings.ContainsAny(head[len(head)-1:], breaks) && !strings.ContainsAny(rest[:1], breaks) {
			t.Errorf("%d columns: the cut's start %q ends inside a part", w, head)
		}
		if before := strings.TrimSuffix(rest, tail); before != "" && !strings.ContainsAny(before[len(before)-1:], breaks) {
			t.Errorf("%d columns: the cut's end %q starts inside a part", w, tail)
		}
	}
	if cuts == 0 {
		t.Fatal("no width from 100 to 200 cut the error in its middle: the test reads nothing")
	}
}

// outageError is the demo's outage error: a URL in it, its cause at its end.
const outageError = "sync with inventory API: PUT https://inventory.demo.svc/v1/items/outage-00000: 503 Service Unavailable"

// outageHeader is the header's diagnosis of an outage on outageError at
// w columns, its lines joined into one sentence.
func outageHeader(t *testing.T, w int) string {
	t.Helper()
	outage := api.ErrorGroup{Controller: "outage", Fingerprint: outageError, Message: outageError,
		Class: api.ClassTransient, Count: 842, FirstSeen: t0.Add(-time.Minute), LastSeen: t0}
	m := loaded(t, w, 30)
	m.setTop(func(t *view.Top) { t.Groups = []api.ErrorGroup{outage} })
	lines := splitLines(screen(m))
	end := 3
	for !strings.HasPrefix(lines[end], "limiters ") {
		end++
	}
	return strings.Join(strings.Fields(strings.Join(lines[2:end], " ")), " ")
}
