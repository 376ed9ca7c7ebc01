package cli_test

import (
	"encoding/json"
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/cli"
)

// TestForgetAllNothingMatched: a bulk forget whose preview selects no key
// has nothing to confirm: without a terminal and without --yes it says so
// and succeeds, as --yes does, and changes nothing.
func TestForgetAllNothingMatched(t *testing.T) {
	addr := diagnosisEndpoint(t) // outage (12 keys) and naive (2)
	c, err := inspector.NewClient(addr, nil)
	if err != nil {
		t.Fatal(err)
	}
	failuresOf := keyFailures(t, c)
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"-q", "zzzz"}, "nothing to forget: no key matched -q zzzz in 2 controllers\n"},
		{[]string{"-q", "no such thing", "--state", "backoff"}, "nothing to forget: no key matched -q 'no such thing' --state backoff in 2 controllers\n"},
		{[]string{"--controller", "outage", "--state", "idle"}, "nothing to forget: no key matched --state idle in controller outage\n"},
	} {
		streams, _, out, errOut := genericiooptions.NewTestIOStreams()
		if err := run(cli.NewForgetCommand, streams, append([]string{"--addr", addr, "--all"}, tt.args...)...); err != nil {
			t.Errorf("forget --all %v: %v; want success, nothing to confirm", tt.args, err)
		}
		if out.String() != tt.want || errOut.Len() != 0 {
			t.Errorf("forget --all %v: stdout %q, stderr %q; want stdout %q", tt.args, out, errOut, tt.want)
		}
	}
	// -o json keeps stdout for JSON: the previews, the words on stderr.
	streams, _, out, errOut := genericiooptions.NewTestIOStreams()
	if err := run(cli.NewForgetCommand, streams, "--addr", addr, "--all", "-q", "zzzz", "-o", "json"); err != nil {
		t.Fatal(err)
	}
	var resps []api.ForgetResponse
	if err := json.Unmarshal(out.Bytes(), &resps); err != nil || len(resps) != 2 || resps[0].Count != 0 || !resps[0].DryRun {
		t.Errorf("forget --all -q zzzz -o json: %v, %s; want two dry-run responses counting 0", err, out)
	}
	if !strings.Contains(errOut.String(), "nothing to forget: no key matched -q zzzz in 2 controllers") {
		t.Errorf("forget --all -q zzzz -o json: stderr %q", errOut)
	}
	// Keys that do match still need --yes off a terminal.
	err = run(cli.NewForgetCommand, genericiooptions.NewTestIOStreamsDiscard(), "--addr", addr, "--all", "-q", "503")
	if err == nil || !strings.Contains(err.Error(), "--all would forget 12 keys: confirm with --yes") {
		t.Errorf("forget --all -q 503 without --yes: %v", err)
	}
	if failuresOf("outage", "demo/o-2") != 3 || failuresOf("naive", "demo/n-1") != 6 {
		t.Error("a forget that matched nothing, or was not confirmed, changed a key")
	}
}
