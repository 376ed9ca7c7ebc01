package cli_test

import (
	"encoding/json"
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-backoff/kubectl-backoff/cli"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
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
		{"widget", "1", "unknown", "just now", "just now", "timeout", "default/w2"},
	}
	rows := tableRows(out.String())
	if e, a := want, rows; !equalRows(e, a) {
		t.Errorf("get --group-by error printed\n%s\nwant rows %q", out, e)
	}
	if e, a := "2 keys with an error, in 2 groups (3 tracked).\n", errOut.String(); e != a {
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
	} {
		err := run(cli.NewGetCommand, genericiooptions.NewTestIOStreamsDiscard(), append([]string{"--addr", unreachable}, tt.args...)...)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("get %v: error %v, want one containing %q", tt.args, err, tt.want)
		}
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
