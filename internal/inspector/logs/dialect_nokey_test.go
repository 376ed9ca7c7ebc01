package logs

import (
	"strings"
	"testing"
	"time"

	clocktesting "k8s.io/utils/clock/testing"
)

// TestDialectMatchWithoutKeyIsUnreadable: a --dialect failure regexp that
// matches a line but captures no key (its author's commonest first
// mistake) leaves a failure not read, whatever the line's format and
// whatever the regexp's words: the stats count it unreadable, as
// --explain-lines says ("looked like a failure, not read"), once each.
// Before, a regexp of alternatives, which yields no failure phrase, left
// zap console, logfmt and JSON lines uncounted while --explain-lines said
// they looked like failures; and a regexp with a phrase was said both to
// match none of the dialect's lines and to match one.
func TestDialectMatchWithoutKeyIsUnreadable(t *testing.T) {
	logs := map[string]string{
		"zap console": "2026-12-03T10:00:00Z\tINFO\tsync of widget team-a/w1 failed, retry #3: quota exceeded\n",
		"logfmt":      "time=2026-12-03T10:00:00Z level=info msg=\"sync of widget team-a/w1 failed, retry #3: quota exceeded\"\n",
		"JSON":        `{"level":"info","ts":"2026-12-03T10:00:00Z","msg":"sync of widget team-a/w1 failed, retry #3: quota exceeded"}` + "\n",
	}
	for _, re := range []string{
		`^sync of widget \S+ failed, retry #(?P<count>\d+): (?P<error>.*)$`,         // a phrase: "sync of widget"
		`^(?:sync|resync) of \w+ \S+ failed, retry #(?P<count>\d+): (?P<error>.*)$`, // none
	} {
		ds, err := parseDialects("widget.yaml", []byte("dialects:\n- name: widget-operator\n  controller: widget\n  lines:\n  - regexp: '"+re+"'\n    means: failure\n"))
		if err != nil {
			t.Fatal(err)
		}
		for format, log := range logs {
			var said []LineReading
			s := NewStore(Options{Clock: clocktesting.NewFakePassiveClock(time.Date(2026, 12, 3, 10, 0, 30, 0, time.UTC)), Dialects: ds,
				ExplainLines: func(l LineReading) { said = append(said, l) }})
			if _, _, err := s.Read(t.Context(), strings.NewReader(log)); err != nil {
				t.Fatal(err)
			}
			lr := s.LogRead()
			if len(said) != 1 || said[0].Meaning != "looked like a failure, not read" || !strings.Contains(said[0].Why, "names no key") {
				t.Errorf("%s, %s: --explain-lines said %+v; want the line looked like a failure and names no key", re, format, said)
				continue
			}
			if lr.Unreadable != 1 {
				t.Errorf("%s, %s: %d lines counted unreadable, want 1, as --explain-lines says", re, format, lr.Unreadable)
			}
			if strings.Contains(said[0].Why, "matches none") {
				t.Errorf("%s, %s: --explain-lines says both that the line matches none of the dialect's lines and that it matches one: %s", re, format, said[0].Why)
			}
		}
	}
}
