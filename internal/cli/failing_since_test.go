package cli_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-backoff/kubectl-backoff/internal/cli"
)

// TestFailingSinceSaysWhenAndHowLong: a streak that began at 10:00:00 and
// is read 1m6s later is "Failing since:  10:00:00 (1m6s ago)" in
// describe and "1m6s" under get -o wide's FAILING FOR, never "failing
// since 1m6s ago", which mixed a moment and a span.
func TestFailingSinceSaysWhenAndHowLong(t *testing.T) {
	srv, reconcile, clk := widgets(t, false) // the fake clock starts at 10:00:00
	refused := errors.New("connection refused")
	reconcile("default/w1", refused)
	clk.Step(66 * time.Second)
	reconcile("default/w1", refused)

	streams, _, out, _ := genericiooptions.NewTestIOStreams()
	if err := run(cli.NewDescribeCommand, streams, "--addr", srv.URL, "default/w1"); err != nil {
		t.Fatal(err)
	}
	if want := "\n  Failing since:  10:00:00 (1m6s ago)\n"; !strings.Contains(out.String(), want) {
		t.Errorf("describe printed:\n%s\nwant a line %q", out, want)
	}

	streams, _, out, _ = genericiooptions.NewTestIOStreams()
	if err := run(cli.NewGetCommand, streams, "--addr", srv.URL, "-o", "wide"); err != nil {
		t.Fatal(err)
	}
	rows := tableRows(out.String())
	col := -1
	for i, h := range rows[0] {
		if h == "FAILING FOR" {
			col = i
		}
	}
	if col < 0 || len(rows) != 2 || rows[1][col] != "1m6s" {
		t.Errorf("get -o wide printed:\n%s\nwant 1m6s under FAILING FOR", out)
	}
}
