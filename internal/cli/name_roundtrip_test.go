package cli_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-backoff/kubectl-backoff/internal/cli"
)

// TestNameRoundTrip: what `get -o name` prints is taken back by get,
// describe and forget, as kubectl takes back pod/NAME:
// `kubectl backoff get -o name --state backoff | xargs kubectl backoff forget`.
func TestNameRoundTrip(t *testing.T) {
	srv, c := endpoint(t, false)
	streams, _, out, _ := genericiooptions.NewTestIOStreams()
	if err := run(cli.NewGetCommand, streams, "--addr", srv.URL, "--state", "backoff", "-o", "name"); err != nil {
		t.Fatalf("get -o name: %v", err)
	}
	names := strings.Fields(out.String())
	if want := []string{"key/default/w1", "key/default/w2"}; strings.Join(names, " ") != strings.Join(want, " ") {
		t.Fatalf("get -o name printed %q, want %q", names, want)
	}

	streams, _, out, _ = genericiooptions.NewTestIOStreams()
	if err := run(cli.NewGetCommand, streams, append([]string{"--addr", srv.URL, "-o", "name"}, names...)...); err != nil {
		t.Fatalf("get %s: %v", strings.Join(names, " "), err)
	}
	if got := strings.Fields(out.String()); strings.Join(got, " ") != strings.Join(names, " ") {
		t.Errorf("get of the names printed %q, want them back", got)
	}

	var described bytes.Buffer
	streams = genericiooptions.IOStreams{In: &bytes.Buffer{}, Out: &described, ErrOut: &bytes.Buffer{}}
	if err := run(cli.NewDescribeCommand, streams, "--addr", srv.URL, names[0]); err != nil {
		t.Fatalf("describe %s: %v", names[0], err)
	}
	if !strings.Contains(described.String(), "default/w1") {
		t.Errorf("describe %s does not describe default/w1:\n%s", names[0], described.String())
	}

	if err := run(cli.NewForgetCommand, genericiooptions.NewTestIOStreamsDiscard(), append([]string{"--addr", srv.URL}, names...)...); err != nil {
		t.Fatalf("forget %s: %v", strings.Join(names, " "), err)
	}
	for _, key := range []string{"default/w1", "default/w2"} {
		d, err := c.Key(context.Background(), "widget", key)
		if err != nil {
			t.Fatal(err)
		}
		if d.Failures != 0 || d.LastReset == nil {
			t.Errorf("%s after forget: failures %d, lastReset %+v; want 0 and a reset", key, d.Failures, d.LastReset)
		}
	}
}
