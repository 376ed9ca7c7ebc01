package cli_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/cli"
)

func TestGetGroupByError(t *testing.T) {
	srv, _ := endpoint(t, false)
	streams, _, out, errOut := genericiooptions.NewTestIOStreams()
	if err := run(cli.NewGetCommand, streams, "--addr", srv.URL, "--group-by", "error"); err != nil {
		t.Fatalf("get --group-by error: %v", err)
	}
	want := [][]string{
		{"CONTROLLER", "COUNT", "CLASS", "FIRST SEEN", "LAST SEEN", "MESSAGE", "EXAMPLES"},
		{"widget", "1", "transient", "just now", "just now", "connection refused", "default/w1"},
		{"widget", "1", "transient", "just now", "just now", "timeout", "default/w2"},
	}
	rows := tableRows(out.String())
	if e, a := want, rows; !equalRows(e, a) {
		t.Errorf("get --group-by error printed\n%s\nwant rows %q", out, e)
	}
	if e, a := "2 keys with an error, in 2 groups (3 tracked; states backoff,failed; --state widens it, e.g. --state backoff,failed,idle).\n", withoutWaitNote(errOut.String()); e != a {
		t.Errorf("stderr %q, want %q", a, e)
	}

	// -o json is the api.ErrorGroupList; --state narrows it.
	streams, _, out, _ = genericiooptions.NewTestIOStreams()
	if err := run(cli.NewGetCommand, streams, "--addr", srv.URL, "--group-by", "error", "--state", "idle", "-o", "json"); err != nil {
		t.Fatal(err)
	}
	var l api.ErrorGroupList
	if err := json.Unmarshal(out.Bytes(), &l); err != nil || l.Total != 3 || l.Matched != 0 || len(l.Groups) != 0 {
		t.Errorf("--state idle -o json: %v, %+v; want no group of the 3 keys", err, l)
	}
	streams, _, out, _ = genericiooptions.NewTestIOStreams()
	if err := run(cli.NewGetCommand, streams, "--addr", srv.URL, "--group-by", "error", "--controller", "widget", "-o", "jsonpath={.groups[*].count}"); err != nil {
		t.Fatal(err)
	}
	if e, a := "1 1", out.String(); e != a {
		t.Errorf("-o jsonpath: %q, want %q", a, e)
	}
}

func TestGetGroupByRefuses(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--group-by", "state"}, `--group-by "state": use error`},
		{[]string{"--group-by", "error", "default/w1"}, "drop the KEYs"},
		{[]string{"--group-by", "error", "-q", "503"}, "drop -q/--filter"},
		{[]string{"--group-by", "error", "-o", "name"}, "--output name: error groups have no names"},
		{[]string{"--group-by", "error", "--sort", "failures"}, "drop --sort"},
		{[]string{"--group-by", "error", "--limit", "0"}, "--limit 0: with --group-by, must be between 1 and 1000 groups"},
	} {
		err := run(cli.NewGetCommand, genericiooptions.NewTestIOStreamsDiscard(), append([]string{"--addr", unreachable}, tt.args...)...)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("get %v: error %v, want one containing %q", tt.args, err, tt.want)
		}
	}
}

// TestGetGroupByErrorStates: without --state, the groups are those of the
// keys still failing, as top's g shows them; a key that recovered keeps its
// last error, and --state idle brings it back. --limit keeps the largest groups.
func TestGetGroupByErrorStates(t *testing.T) {
	srv, reconcile, _ := widgets(t, false)
	for range 3 {
		reconcile("default/w1", errors.New("connection refused"))
	}
	reconcile("default/w2", errors.New("timeout"))
	reconcile("default/w4", errors.New("conflict"))
	reconcile("default/w4", nil) // recovered: idle, with its last error
	for _, tt := range []struct {
		args    []string
		want    string // the groups' counts, largest first
		summary string
	}{
		{nil, "1 1", "2 keys with an error, in 2 groups (3 tracked; states backoff,failed; --state widens it, e.g. --state backoff,failed,idle).\n"},
		{[]string{"--state", "backoff,failed,idle"}, "1 1 1", "3 keys with an error, in 3 groups (3 tracked; states backoff,failed,idle).\n"},
		{[]string{"--state", "idle"}, "1", "1 key with an error, in 1 group (3 tracked; states idle).\n"},
		{[]string{"--limit", "1"}, "1", "2 keys with an error, in 2 groups (3 tracked; states backoff,failed; --state widens it, e.g. --state backoff,failed,idle).\n" +
			"Showing the largest 1 of 2 groups (--limit).\n"},
	} {
		streams, _, out, errOut := genericiooptions.NewTestIOStreams()
		if err := run(cli.NewGetCommand, streams, append([]string{"--addr", srv.URL, "--group-by", "error"}, tt.args...)...); err != nil {
			t.Fatalf("get --group-by error %v: %v", tt.args, err)
		}
		var counts []string
		for _, r := range tableRows(out.String())[1:] {
			counts = append(counts, r[1])
		}
		if e, a := tt.want, strings.Join(counts, " "); e != a {
			t.Errorf("get --group-by error %v: counts %q, want %q\n%s", tt.args, a, e, out)
		}
		if e, a := tt.summary, withoutWaitNote(errOut.String()); e != a {
			t.Errorf("get --group-by error %v: stderr %q, want %q", tt.args, a, e)
		}
	}

	// Nothing failing: no table, and the message on stderr says where it looked.
	streams, _, out, errOut := genericiooptions.NewTestIOStreams()
	if err := run(cli.NewGetCommand, streams, "--addr", srv.URL, "--group-by", "error", "--state", "running"); err != nil {
		t.Fatal(err)
	}
	if e := "No key has an error (3 tracked; states running).\n"; out.String() != "" || withoutWaitNote(errOut.String()) != e {
		t.Errorf("no group: stdout %q, stderr %q; want nothing and %q", out, errOut, e)
	}
}

// tableRows splits a table into rows of cells.
func tableRows(table string) [][]string {
	var rows [][]string
	for line := range strings.Lines(table) {
		var cells []string
		for c := range strings.SplitSeq(strings.TrimRight(line, " \n"), "   ") {
			if c = strings.TrimSpace(c); c != "" {
				cells = append(cells, c)
			}
		}
		rows = append(rows, cells)
	}
	return rows
}

func equalRows(a, b [][]string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if strings.Join(a[i], "|") != strings.Join(b[i], "|") {
			return false
		}
	}
	return true
}
