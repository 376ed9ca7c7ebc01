package ui

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/view"
)

// squash is s without its whitespace: the words, wherever the lines broke.
func squash(s string) string { return strings.Join(strings.Fields(s), "") }

// The explanation is wrapped, never cut: at every width each word of the
// summary, the details and the findings is on screen, every paragraph's
// continuation lines are indented, and no line is wider than the terminal.
func TestDetailWrapsProse(t *testing.T) {
	for w := 60; w <= 130; w++ {
		m := detailOf(t, loaded(t, w, 60))
		now := m.det().C.ServerNow(m.det().Data.Key.ServerTime, m.det().FetchedAt)
		dg := m.det().Explain(now)
		paras := append([]string{dg.Summary}, dg.Details...)
		for _, f := range dg.Findings {
			paras = append(paras, "! "+m.det().Finding(f))
		}
		lines := splitLines(screen(m))[view.HeadLines:]
		var prose []string
		for _, l := range lines {
			if strings.HasPrefix(l, "Object: ") || strings.HasPrefix(l, "Attempts") {
				break // the verdict, then the attempts, follow the prose
			}
			prose = append(prose, strings.TrimRight(l, " "))
		}
		if got, want := squash(strings.Join(prose, " ")), squash(strings.Join(paras, " ")); got != want {
			t.Errorf("width %d: the explanation on screen is not the diagnosis in full:\n got %s\nwant %s\n%s", w, got, want, strings.Join(prose, "\n"))
		}
		starts := 0
		for _, l := range prose {
			if ansi.StringWidth(l) > w {
				t.Errorf("width %d: line %q is %d wide", w, l, ansi.StringWidth(l))
			}
			if l != "" && !strings.HasPrefix(l, "  ") {
				starts++
			}
		}
		if starts != len(paras) {
			t.Errorf("width %d: %d lines start a paragraph, want %d (continuations indented):\n%s", w, starts, len(paras), strings.Join(prose, "\n"))
		}
	}
}

// The object's verdict, by the rule `why` uses, sits between the
// explanation and the attempts; a failed verdict adds kstatus's message,
// and an object not read has no verdict line.
func TestDetailVerdictAboveAttempts(t *testing.T) {
	verdictAt := func(lines []string) (int, int) {
		v, a := -1, -1
		for i, l := range lines {
			switch {
			case strings.HasPrefix(l, "Object: ") && v < 0:
				v = i
			case strings.HasPrefix(l, "Attempts") && a < 0:
				a = i
			}
		}
		return v, a
	}
	lines := splitLines(screen(detailOf(t, loaded(t, 120, 60))))
	v, a := verdictAt(lines)
	want := "Object: not ready yet (InProgress): generation 3, changed 3m0s ago by kubectl-client-side-apply; the controller has observed 2"
	if v < 0 || a < 0 || v > a || squash(strings.Join(lines[v:v+2], " ")) != squash(want) { // wrapped at 120
		t.Fatalf("verdict at line %d, attempts at %d; want %q above the attempts:\n%s", v, a, want, strings.Join(lines, "\n"))
	}

	m := loaded(t, 120, 60)
	m.pushView(modeDetail, view.Detail{C: m.c, Controller: "naive", Key: "demo/naive-00001"})
	failed := fixedDetail()
	fv := failed.Object.Verdict
	fv.Status, fv.KStatus, fv.Message = "Failed", "Failed", "Stalled: storage class gold does not exist"
	failed.Object.Verdict = fv
	lines = splitLines(screen(send(t, m, view.DetailFetchedMsg{Controller: "naive", Key: "demo/naive-00001", Data: failed, FetchedAt: t0})))
	v, a = verdictAt(lines)
	if v < 0 || !strings.HasPrefix(lines[v], "Object: not ready (Failed): generation 3") || strings.TrimSpace(lines[v+1]) != fv.Message || v > a {
		t.Errorf("failed verdict: want its line and then its message above the attempts:\n%s", strings.Join(lines, "\n"))
	}

	none := fixedDetail()
	none.Object = nil
	lines = splitLines(screen(send(t, m, view.DetailFetchedMsg{Controller: "naive", Key: "demo/naive-00001", Data: none, FetchedAt: t0})))
	if v, a := verdictAt(lines); v >= 0 && v < a {
		t.Errorf("object not read: a verdict line above the attempts:\n%s", strings.Join(lines, "\n"))
	}
}

// The Attempts table may cut its cells, but the error cell shows the error
// itself at 80 columns, not only the count before it.
func TestDetailTimelineShowsTheError(t *testing.T) {
	m := detailOf(t, loaded(t, 80, 60))
	s := screen(m)
	if !strings.Contains(s, "×15 spec.storageClass:") {
		t.Errorf("the run of 15 errors does not show its error at 80 columns:\n%s", s)
	}
}

// The header's countdown and the narrative's "(in …)" are computed at the
// same server time: 3.3s after the read both say 4m8s, not one 4m12s.
func TestDetailNarrativeCountsDownWithHeader(t *testing.T) {
	m := detailOf(t, loaded(t, 120, 30))
	later := t0.Add(3300 * time.Millisecond)
	m.c.Opts.Clock = func() time.Time { return later }
	s := screen(m)
	header := regexp.MustCompile(`next retry (\S+)`).FindStringSubmatch(s)
	story := regexp.MustCompile(`\(in\s+([^)\s]+)\)`).FindStringSubmatch(s)
	if header == nil || story == nil {
		t.Fatalf("no countdown in the header (%q) or the narrative (%q):\n%s", header, story, s)
	}
	if header[1] != story[1] || header[1] == "4m12s" {
		t.Errorf("header says next retry %s, narrative (in %s); want the same, 3.3s less than 4m12s", header[1], story[1])
	}
}

// wrap keeps every line within the width and loses no character, whatever
// falls at the edge: a comma, a slash, a hyphen, a word longer than a line.
func TestWrapNeverOverflows(t *testing.T) {
	texts := []string{
		"Backing off 5m27s after 17 consecutive failures: per-item exponential, 5ms·2^16, cap 16m40s.",
		"dial tcp 10.0.0.7:443: connect: connection refused, see /var/run/secrets/kubernetes.io/serviceaccount/token, a,b,c,d,e",
		"retry now with `kubectl backoff forget --controller outage --all --state backoff --requeue --spread 1m` instead",
		"averyveryverylongwordwithoutanybreakpointatallthatmustbecutsomewhere, then words",
	}
	for _, s := range texts {
		for w := 8; w <= 100; w++ {
			lines := text.Wrap(s, w)
			for _, l := range lines {
				if ansi.StringWidth(l) > w {
					t.Errorf("wrap(%q, %d): line %q is %d wide", s, w, l, ansi.StringWidth(l))
				}
			}
			if got, want := squash(strings.Join(lines, " ")), squash(s); got != want {
				t.Errorf("wrap(%q, %d) lost text: %q", s, w, got)
			}
		}
	}
}

// The view is redrawn once a second, so its countdowns claim whole seconds
// and no more: "<1s" in the last one (never "868ms" that stands while a
// second passes), and 59.6s left reads 59s in the header, in the narrative
// and in the table, as describe and get say it.
func TestCountdownsClaimWholeSeconds(t *testing.T) {
	for _, tt := range []struct {
		left time.Duration
		want string
	}{
		{868 * time.Millisecond, "<1s"},
		{3900 * time.Millisecond, "3s"},
		{59_600 * time.Millisecond, "59s"},
	} {
		m := loaded(t, 120, 30)
		d := fixedDetail()
		d.Key.NextRetryAt = t0.Add(tt.left)
		m.pushView(modeDetail, view.Detail{C: m.c, Controller: "naive", Key: "demo/naive-00001"})
		m = send(t, m, view.DetailFetchedMsg{Controller: "naive", Key: "demo/naive-00001", Data: d, FetchedAt: t0})
		s := screen(m)
		header := regexp.MustCompile(`next retry (\S+)`).FindStringSubmatch(s)
		story := regexp.MustCompile(`\(in\s+([^)\s]+)\)`).FindStringSubmatch(s)
		if header == nil || story == nil || header[1] != tt.want || story[1] != tt.want {
			t.Errorf("%v left: header %q, narrative %q; want both %q", tt.left, header, story, tt.want)
		}
		if got := explain.NextRetryText(d.Key.Key, t0); got != tt.want {
			t.Errorf("%v left: get's NEXT says %q, want %q as the UI", tt.left, got, tt.want)
		}
	}
}
