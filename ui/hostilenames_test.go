package ui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/logs"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/view"
)

// hostileLog is a log whose controller names hold an SGR, an OSC 8
// hyperlink, a DCS string and a title; and a dialect whose name holds an
// SGR, a title and a NUL (issue #47 item 3: written raw by the groups view,
// the header after TAB and the log-read line).
const hostileLog = `{"level":"error","ts":"2025-06-01T10:00:00Z","msg":"Reconciler error","controller":"w\u001b[5;31mRED\u001b]8;;http://evil/\u0007link\u001b]8;;\u0007","namespace":"demo","name":"a","error":"boom"}
{"level":"error","ts":"2025-06-01T10:00:01Z","msg":"Reconciler error","controller":"v\u001bPqDCS\u001b\\\u202eevil","namespace":"demo","name":"b","error":"boom"}
2025-06-01T10:00:02Z INFO sync of widget demo/c failed: quota
`

const hostileDialect = `dialects:
- name: "d\e[5;31m\e]0;TITLE\a\0x"
  controller: "c\e]0;TITLE2\a"
  lines:
  - regexp: '^sync of widget (?P<key>\S+) failed: (?P<error>.*)$'
    means: failure
`

// Every view and header of top over that log shows the names escaped,
// none of their control characters raw.
func TestLogNamesEscapedInEveryView(t *testing.T) {
	path := filepath.Join(t.TempDir(), "d.yaml")
	if err := os.WriteFile(path, []byte(hostileDialect), 0o600); err != nil {
		t.Fatal(err)
	}
	ds, err := logs.LoadDialects(path)
	if err != nil {
		t.Fatal(err)
	}
	store := logs.NewStore(logs.Options{Clock: clocktesting.NewFakePassiveClock(t0), Dialects: ds})
	if _, _, err := store.Read(context.Background(), strings.NewReader(hostileLog)); err != nil {
		t.Fatal(err)
	}
	if store.Len() != 3 {
		t.Fatalf("read %d keys, want 3 (one per controller)", store.Len())
	}
	for _, sz := range [][2]int{{200, 40}, {80, 24}} {
		m := newModel(context.Background(), view.Options{Session: inspector.InProcessSession(nil, inspector.NamedHandler{Name: "logs: hostile.log", Handler: store.Handler()}), Clock: fixedClock})
		m = send(t, m, tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
		m = send(t, m, m.refreshTop()())
		views := map[string]Model{"top": m}
		tab := m
		for i := 1; i <= 3; i++ {
			tab = send(t, tab, press("tab"))
			tab = send(t, tab, tab.refreshTop()())
			views["tab"+string(rune('0'+i))] = tab
		}
		g := send(t, m, press("g"))
		views["groups"] = send(t, g, g.refreshGroups()())
		views["help"] = send(t, m, press("?"))
		for name, v := range views {
			out := v.View().Content
			if seq := hostileRaw(out); seq != "" {
				i := strings.Index(out, seq)
				t.Errorf("%s at %dx%d shows %q raw: %q", name, sz[0], sz[1], seq, out[max(0, i-60):min(len(out), i+20)])
			}
			for _, raw := range []string{"\x1b[5;31m", "\x1bP"} {
				if strings.Contains(out, raw) {
					t.Errorf("%s at %dx%d shows %q raw", name, sz[0], sz[1], raw)
				}
			}
		}
	}
}
