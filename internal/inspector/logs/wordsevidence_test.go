package logs

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
	"time"

	clocktesting "k8s.io/utils/clock/testing"
)

// TestWordsEvidenceSaysTheLevel: a line read by its words says how it was
// logged. kubevirt's "reenqueuing" is an info line whose error is in its
// reason field, and sealed-secrets' Go log lines have no level at all;
// describe and --explain-lines said "at error or warning level" of both.
func TestWordsEvidenceSaysTheLevel(t *testing.T) {
	for _, tt := range []struct{ file, want string }{
		{"testdata/batch3/72-kubevirt-json-reenqueuing-two-keys.log", "its words, at info level, with an error field"},
		{"testdata/batch3/70-sealed-secrets-stdlog-giving-up-terminal.log", "its words, in a format that shows no level"},
	} {
		raw, err := os.ReadFile(tt.file)
		if err != nil {
			t.Fatal(err)
		}
		var why []string
		s := NewStore(Options{Clock: clocktesting.NewFakePassiveClock(time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)),
			ExplainLines: func(lr LineReading) {
				if lr.Key != "" {
					why = append(why, lr.Why)
				}
			}})
		if _, _, err := s.Read(context.Background(), bytes.NewReader(raw)); err != nil {
			t.Fatal(err)
		}
		if len(why) == 0 {
			t.Fatalf("%s: no line read with a key", tt.file)
		}
		for _, w := range why {
			if strings.Contains(w, "its words") && !strings.Contains(w, tt.want) {
				t.Errorf("%s: %q; want %q", tt.file, w, tt.want)
			}
		}
		if !strings.Contains(strings.Join(why, "\n"), tt.want) {
			t.Errorf("%s: no reading says %q:\n%s", tt.file, tt.want, strings.Join(why, "\n"))
		}
	}
}
