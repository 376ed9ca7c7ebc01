package cli

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// longKeyList holds what a log may hand the reader: a key of 2,000 runes
// with a tab and an escape in it, and an error of 2,000 with its cause at
// the end, beside an ordinary key.
func longKeyList() *inspector.KeyList {
	now := time.Date(2026, 12, 7, 9, 0, 0, 0, time.UTC)
	long := "ns/evil\x1b[31mred\ttab" + strings.Repeat("k", 2000) + "-end"
	msg := "boom \x1b[2J" + strings.Repeat("e", 2000) + " cause: connection refused"
	return &inspector.KeyList{ServerTime: now, Total: 2, Matched: 2, Items: []inspector.PodKey{
		{Key: api.Key{Controller: "widget", Key: long, State: api.StateBackoff, Failures: 3, Source: api.SourceLogs,
			LastError: &api.ErrorRecord{Message: msg, At: now}}},
		{Key: api.Key{Controller: "widget", Key: "ns/short", State: api.StateBackoff, Failures: 3, Source: api.SourceLogs,
			LastError: &api.ErrorRecord{Message: "short err", At: now}}},
	}}
}

// TestLongKeyKeepsTheTable: get with a 2,000-rune key read off a log. On an
// 80-column terminal every row fits and every column up to NEXT RETRY is
// in view (the key took the whole width: its row was "ns/kkk…" and nothing
// else); piped, the key is cut at text.MaxName, longer than any object's.
// Either way its tab is escaped (it split the row into one more column)
// and so is its escape.
func TestLongKeyKeepsTheTable(t *testing.T) {
	for _, width := range []int{80, 0} {
		var b bytes.Buffer
		printKeysFit(&b, longKeyList(), false, false, width)
		out := b.String()
		if strings.ContainsAny(out, "\t\x1b") {
			t.Errorf("width %d: a raw tab or escape in the table:\n%q", width, out)
		}
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if len(lines) != 3 {
			t.Fatalf("width %d: %d lines, want a header and 2 rows:\n%s", width, len(lines), out)
		}
		for _, l := range lines {
			if w := ansi.StringWidth(l); width > 0 && w > width {
				t.Errorf("a line of %d cells on an %d-cell terminal: %q", w, width, l)
			}
			if w := ansi.StringWidth(l); width == 0 && w > text.MaxName+200 {
				t.Errorf("piped: a line of %d cells: %.80q…", w, l)
			}
		}
		for _, want := range []string{"KEY", "STATE", "FAILS", "NEXT RETRY"} {
			if !strings.Contains(lines[0], want) {
				t.Errorf("width %d: header %q lacks %s", width, lines[0], want)
			}
		}
		if !strings.Contains(lines[1], `ns/evil\x1b`) || width == 0 && !strings.Contains(lines[1], `ns/evil\x1b[31mred\ttab`) || !strings.Contains(lines[1], "…") || !strings.Contains(lines[1], "backoff") {
			t.Errorf("width %d: the long key's row %q, want its start escaped, a cut and its state", width, lines[1])
		}
	}
}

// TestLongErrorInDescribeHistory: on a terminal, each attempt's error in
// describe's history is cut (the diagnosis quotes it above), its cause at
// the end kept; piped, whole, as kubectl prints for grep.
func TestLongErrorInDescribeHistory(t *testing.T) {
	k := longKeyList().Items[0].Key
	hist := []api.Attempt{{At: k.LastError.At, Outcome: api.OutcomeError, Error: k.LastError.Message}}
	defer onTerminalForTest(true)()
	var b bytes.Buffer
	printHistory(&b, hist, 0)
	row := strings.Split(b.String(), "\n")[3]
	if w := ansi.StringWidth(row); w > 80+maxHistoryError || !strings.HasSuffix(row, "cause: connection refused") || strings.Contains(row, "\x1b") {
		t.Errorf("terminal: the history row is %d cells: %.120q…", w, row)
	}
	onTerminalForTest(false)
	b.Reset()
	printHistory(&b, hist, 0)
	if !strings.Contains(b.String(), strings.Repeat("e", 2000)) {
		t.Errorf("piped: the error was cut")
	}
}
