package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// TestLogNoteRendered: describe's Source section for a log's key is the
// library's words (explain.LogNote), with --since named by the command for
// a TARGET's logs; the text is what describe printed before the words
// moved down. A file is read from its first line: --since, which it
// refuses, is not named.
func TestLogNoteRendered(t *testing.T) {
	var b bytes.Buffer
	printLogNote(&b, api.Key{Key: "default/w1", Source: api.SourceLogs, Estimated: true}, &api.ListSource{Kind: api.SourceLogs, SuccessesHow: "-v=5"}, nil, true)
	want := `
Source:
  the controller's log, not its queue: every number is an estimate.
  Failures count the consecutive failure lines since the log read starts (--since).
  Delays and the next retry are estimated with the default per-item exponential (5ms·2^(n−1), cap 16m40s),
  or its project's own where the log's dialect knows it: the diagnosis above names the one used.
  This log shows no successes: a key quiet past its retry is "unknown", not idle
  (at -v=5 the controller logs its successes too, and they are read).
`
	if b.String() != want {
		t.Errorf("note:\n%s\nwant:\n%s", b.String(), want)
	}
	b.Reset()
	printLogNote(&b, api.Key{Key: "default/w1", Source: api.SourceLogs, Estimated: true}, &api.ListSource{Kind: api.SourceLogs}, nil, false)
	if want := "  Failures count the consecutive failure lines since the log read starts (its first line).\n"; !strings.Contains(b.String(), want) || strings.Contains(b.String(), "--since") {
		t.Errorf("a file's note:\n%s\nwant %q and no --since", b.String(), want)
	}
	b.Reset()
	printLogNote(&b, api.Key{Key: "default/w1"}, nil, nil, false)
	if b.Len() != 0 {
		t.Errorf("an endpoint's key got a log note: %q", b.String())
	}
}
