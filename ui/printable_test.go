package ui

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/objstatus"
	objwhy "github.com/kubectl-backoff/kubectl-backoff/internal/inspector/why"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/view"
)

// hostileText is what an error, a name or a reason from the cluster can
// hold (issue #32): an OSC setting the title ended by BEL, a CSI clearing
// the screen and homing the cursor, a NUL, an 8-bit CSI, a raw 0x9b byte, a
// carriage return, a right-to-left override; then every other C0 and C1
// control, DEL, and every bidirectional control (embeddings, overrides,
// isolates, marks), so that each view is tried with each.
var hostileText = "\x1b]0;PWNED-TITLE\x07\x1b[2J\x1b[H boom\x00 \u009b31m \x9b \rover \u202eevil " + string(everyControl())

// everyControl is each character a terminal acts on that text.Printable
// escapes, once.
func everyControl() []rune {
	var rs []rune
	for r := rune(0); r <= 0x9f; r++ {
		if r < 0x20 && r != '\t' && r != '\n' || r == 0x7f || r >= 0x80 {
			rs = append(rs, r)
		}
	}
	return append(rs, []rune("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")...)
}

// hostileRaw is the first piece of hostileText found raw in a view (what
// the UI's own styling never writes: its escapes are SGR colours), or "".
func hostileRaw(view string) string {
	for _, seq := range []string{"\x1b]", "\x1b[2J", "\x1b[H", "\x00", "\x07", "\r", "\u009b", "\u202e"} {
		if strings.Contains(view, seq) {
			return seq
		}
	}
	for i := 0; i < len(view); {
		r, size := utf8.DecodeRuneInString(view[i:])
		if r == utf8.RuneError && size == 1 {
			return view[i : i+1]
		}
		// Any other control but ESC, which the styling's SGR writes.
		if r != 0x1b && slices.Contains(everyControl(), r) {
			return string(r)
		}
		i += size
	}
	return ""
}

// hostilePage is the fixed page with control characters in the names,
// errors and sources the endpoint returns.
func hostilePage(n int) *inspector.KeyList {
	l := fixedPage(n)
	for i := range l.Items {
		k := &l.Items[i].Key
		k.Key += hostileText
		k.DelaySource += hostileText
		if k.LastError != nil {
			k.LastError.Message = hostileText + " " + k.LastError.Message
			k.LastError.Class = hostileText
		}
		l.Items[i].Pod = "demo/ctrl-0" + hostileText
	}
	return l
}

// The TUI escapes control characters of the cluster's text in every view:
// the table and its header, the selected line, the detail (history,
// conditions, events, the object), the error groups, the forget prompt.
func TestViewsEscapeControlCharacters(t *testing.T) {
	for _, sz := range [][2]int{{200, 50}, {80, 24}} {
		m := newModel(t.Context(), view.Options{Clock: fixedClock, Context: "kind-demo", Namespace: "demo"})
		m = send(t, m, tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
		ov := fixedOverview()
		ov.Controllers[0].Limiter.Description += hostileText
		m = send(t, m, view.RefreshedMsg{Seq: m.tbl().Seq, Overview: ov, Page: hostilePage(m.tbl().Rows()), FetchedAt: t0})
		views := map[string]Model{"top": m, "confirm": send(t, m, press("down"), press("f"))}

		d := fixedDetail()
		d.Key.Key.Key += hostileText
		d.Key.LastError.Message = hostileText
		for i := range d.Key.History {
			d.Key.History[i].Error = hostileText
			d.Key.History[i].Reason, d.Key.History[i].By = hostileText, hostileText
		}
		d.Object.Name += hostileText
		d.Object.Verdict.Conditions[0].Message, d.Object.Verdict.Conditions[0].Reason = hostileText, hostileText
		d.Object.Events[0].Message, d.Object.Events[0].Reason = hostileText, hostileText
		d.Diagnosis.Summary += hostileText
		dm := m
		dm.pushView(modeDetail, view.Detail{C: m.c, Controller: "naive", Key: d.Key.Key.Key})
		views["detail"] = send(t, dm, view.DetailFetchedMsg{Controller: "naive", Key: d.Key.Key.Key, Data: d, FetchedAt: t0})

		g := fixedGroups()
		for i := range g.List.Groups {
			g.List.Groups[i].Message = hostileText + g.List.Groups[i].Message
			g.List.Groups[i].Fingerprint = hostileText + g.List.Groups[i].Fingerprint
			g.List.Groups[i].Examples = []string{"demo/x" + hostileText}
		}
		views["group"] = send(t, m, press("g"), g)

		// top -A: pods of several workloads, one out of reach, named in the
		// header's rows with why; the pod column of every row.
		fov := fixedOverview()
		base := fov.Replicas[0]
		other, down := base, base
		other.Endpoint, other.Workload = "team-b/ctrl-0"+hostileText, "deploy/ctrl-b"+hostileText
		down.Endpoint, down.Workload = "team-c/ctrl-0"+hostileText, "deploy/ctrl-c"
		down.Err, down.ServerTime, down.Controllers = errors.New("dial tcp: refused"+hostileText), time.Time{}, nil
		fov.Replicas = append(fov.Replicas, other, down)
		fm := newModel(t.Context(), view.Options{Clock: fixedClock, Context: "kind-demo", Namespace: "demo"})
		fm = send(t, fm, tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
		views["fleet"] = send(t, fm, view.RefreshedMsg{Seq: fm.tbl().Seq, Overview: fov, Page: hostilePage(fm.tbl().Rows()), FetchedAt: t0})

		for name, v := range views {
			view := v.View().Content
			if seq := hostileRaw(view); seq != "" {
				i := strings.Index(view, seq)
				t.Errorf("%s at %dx%d shows %q raw: %q", name, sz[0], sz[1], seq, view[max(0, i-60):min(len(view), i+20)])
			}
			if strings.Contains(view, `\\x1b`) {
				t.Errorf("%s at %dx%d escapes twice (\\\\x1b):\n%s", name, sz[0], sz[1], screen(v))
			}
			if !strings.Contains(view, `\x1b`) {
				t.Errorf("%s at %dx%d does not show the escaped text:\n%s", name, sz[0], sz[1], screen(v))
			}
		}
	}
}

// The --for views (the list of objects not Current, one object's answer,
// its chain) escape the objects' names, conditions and events too.
func TestForViewsEscapeControlCharacters(t *testing.T) {
	h := hostileText
	og := int64(1)
	list := &objwhy.List{Answers: []*objwhy.Answer{{
		Object:  objwhy.Object{APIVersion: "example.com/v1", Kind: "Widget", Namespace: "default", Name: "w" + h, Key: "default/w" + h},
		Verdict: objwhy.Verdict{Status: objwhy.InProgress, Message: h, Generation: 2, ObservedGeneration: &og, Evidence: []string{h}},
		Events:  []objstatus.Event{{Type: "Warning", Reason: h, Message: h, LastSeen: t0}},
		Summary: h, Next: []string{h}, Now: t0,
		Chain: &objwhy.Chain{Root: &objwhy.Node{Object: objwhy.Object{APIVersion: "example.com/v1", Kind: "Widget", Name: "w" + h}, Status: objwhy.InProgress, Line: h,
			Below: []*objwhy.Node{{Object: objwhy.Object{APIVersion: "v1", Kind: "Pod", Name: "p" + h}, Via: h, Status: objwhy.InProgress, Line: h, Blocker: true}}},
			Cut: []string{h}},
	}}}
	m := newModel(t.Context(), view.Options{Clock: fixedClock, For: &view.ForOptions{Type: "widgets", List: func(context.Context) (*objwhy.List, error) { return list, nil }}})
	m = send(t, m, tea.WindowSizeMsg{Width: 160, Height: 40}, view.ForFetchedMsg{List: list, FetchedAt: t0})
	answer := send(t, m, press("enter"))
	chain := send(t, answer, press("t"))
	if chain.view() != modeChain {
		t.Fatalf("t on the answer: state %v; want the chain view", chain.modes())
	}
	for name, v := range map[string]Model{"for": m, "for-answer": answer, "chain": chain} {
		view := v.View().Content
		if seq := hostileRaw(view); seq != "" {
			i := strings.Index(view, seq)
			t.Errorf("%s shows %q raw: %q", name, seq, view[max(0, i-60):min(len(view), i+20)])
		}
		if !strings.Contains(view, `\x1b`) {
			t.Errorf("%s does not show the escaped text:\n%s", name, screen(v))
		}
	}
}

// TestForLookupsUseTheRawNames: the `--for` list is escaped for the
// screen, but what is looked up in the cluster (the controller to attach
// to) keeps the names as read: an escaped name names nothing.
func TestForLookupsUseTheRawNames(t *testing.T) {
	raw := "deploy/ctl" + hostileText
	list := &objwhy.List{Answers: []*objwhy.Answer{{Controller: &objwhy.Controller{Namespace: "ns", Target: raw}}}}
	f := view.For{C: &view.Common{Opts: view.Options{Clock: fixedClock}}}.Received(view.ForFetchedMsg{List: list, FetchedAt: t0})
	shown := f.Answers()[0]
	if hostileRaw(shown.Controller.Target) != "" {
		t.Errorf("the list shown keeps %q raw", shown.Controller.Target)
	}
	if got := f.RawOf(shown).Controller.Target; got != raw {
		t.Errorf("the lookup names %q, want the name as read %q", got, raw)
	}
}
