package cli_test

import (
	"encoding/json"
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/internal/cli"
)

// TestGetSaysTheLimitInEveryFormat: a list cut by --limit says so on
// stderr whatever -o is, and stdout stays what the format promises: a
// script piping -o name to forget must not act on half the keys unawares.
func TestGetSaysTheLimitInEveryFormat(t *testing.T) {
	srv, _ := endpoint(t, false)
	const note = "Showing 2 of 3 matching keys (--limit).\n"
	for _, tt := range []struct {
		format string
		// stdout checks what is printed is the format's, and only 2 keys.
		stdout func(out string) bool
	}{
		{"", func(out string) bool { return strings.Count(out, "default/w") == 2 }},
		{"json", func(out string) bool {
			var l inspector.KeyList
			return json.Unmarshal([]byte(out), &l) == nil && len(l.Items) == 2 && l.Matched == 3
		}},
		{"yaml", func(out string) bool { return strings.Count(out, "key: default/w") == 2 }},
		{"name", func(out string) bool { return out == "key/default/w1\nkey/default/w2\n" }},
		{"jsonpath={.items[*].key}", func(out string) bool { return out == "default/w1 default/w2" }},
	} {
		args := []string{"--addr", srv.URL, "--sort", "key", "--limit", "2"}
		if tt.format != "" {
			args = append(args, "-o", tt.format)
		}
		streams, _, out, errOut := genericiooptions.NewTestIOStreams()
		if err := run(cli.NewGetCommand, streams, args...); err != nil {
			t.Fatalf("get %v: %v", args, err)
		}
		if withoutWaitNote(errOut.String()) != note {
			t.Errorf("get -o %q: stderr %q, want %q", tt.format, errOut, note)
		}
		if !tt.stdout(out.String()) {
			t.Errorf("get -o %q: stdout %q, want the 2 keys in that format and nothing else", tt.format, out)
		}
	}
	// Not cut: nothing on stderr.
	streams, _, _, errOut := genericiooptions.NewTestIOStreams()
	if err := run(cli.NewGetCommand, streams, "--addr", srv.URL, "--limit", "3", "-o", "name"); err != nil || errOut.Len() != 0 {
		t.Errorf("get --limit 3 -o name: %v, stderr %q; want nothing on stderr", err, errOut)
	}
}
