package cli_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/genericiooptions"
	"sigs.k8s.io/yaml"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/cli"
)

// TestGetAllKeysFollowsContinue: past the endpoint's 1,000 a page, get
// follows its continue token, --chunk-size keys a request: --limit 0 lists
// every matching key once, in the order asked; --limit 1500 the first
// 1,500, saying how many more matched.
func TestGetAllKeysFollowsContinue(t *testing.T) {
	srv, reconcile, _ := widgets(t, false)
	const n = 2500
	for i := range n {
		key := fmt.Sprintf("default/w%05d", i)
		for range i % 3 { // 0, 1 or 2 failures: the sort has something to order
			reconcile(key, errors.New("connection refused"))
		}
		if i%3 == 0 {
			reconcile(key, nil)
		}
	}
	for _, c := range []struct {
		args []string
		want int
		note string
	}{
		{[]string{"--limit", "0", "-o", "json"}, n, ""},
		{[]string{"--limit", "0", "--chunk-size", "300", "-o", "yaml"}, n, ""},
		{[]string{"--limit", "1500", "--chunk-size", "700", "--sort", "failures", "-o", "json"}, 1500, fmt.Sprintf("Showing 1500 of %d matching keys (--limit).\n", n)},
	} {
		streams, _, out, errOut := genericiooptions.NewTestIOStreams()
		if err := run(cli.NewGetCommand, streams, append([]string{"--addr", srv.URL}, c.args...)...); err != nil {
			t.Fatalf("get %v: %v", c.args, err)
		}
		var l inspector.KeyList
		if err := unmarshalList(out.Bytes(), &l); err != nil {
			t.Fatalf("get %v: %v\n%.300s", c.args, err, out)
		}
		if len(l.Items) != c.want || l.Matched != n {
			t.Errorf("get %v: %d items of %d matched, want %d of %d", c.args, len(l.Items), l.Matched, c.want, n)
		}
		seen := map[string]bool{}
		for i, k := range l.Items {
			if seen[k.Key.Key] {
				t.Errorf("get %v: %s listed twice", c.args, k.Key.Key)
			}
			seen[k.Key.Key] = true
			sort := api.SortRetrying // get's default
			if c.args[len(c.args)-3] == "failures" {
				sort = api.SortFailures
			}
			if i > 0 && api.CompareKeys(&l.Items[i-1].Key, &k.Key, sort) > 0 {
				t.Errorf("get %v: %s before %s, out of %s order", c.args, l.Items[i-1].Key.Key, k.Key.Key, sort)
				break
			}
		}
		if got := withoutWaitNote(errOut.String()); got != c.note {
			t.Errorf("get %v: stderr %q, want %q", c.args, got, c.note)
		}
	}
}

// withoutWaitNote takes out the "waiting for ADDR…" note a request left
// unanswered for a second prints: on a loaded machine (-race, two cores) a
// page of 1,000 keys can take that long, and the note is true then.
func withoutWaitNote(stderr string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(stderr, "\n") {
		if !strings.HasPrefix(l, "waiting for ") {
			b.WriteString(l)
		}
	}
	return b.String()
}

// unmarshalList reads get's -o json or -o yaml.
func unmarshalList(b []byte, l *inspector.KeyList) error {
	if len(b) > 0 && b[0] == '{' {
		return json.Unmarshal(b, l)
	}
	return yaml.Unmarshal(b, l)
}
