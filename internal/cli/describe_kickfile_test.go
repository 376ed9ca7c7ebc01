package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"
)

// describe --from-logs FILE of a key failing on a lasting transient error
// advises a kick that runs as copied: kick --from-logs FILE KEY, not
// kick TARGET, which names nothing the reader of a saved log has.
func TestDescribeFileSuggestsKickOfTheFile(t *testing.T) {
	var b strings.Builder
	at, d := time.Date(2026, 12, 6, 20, 0, 0, 0, time.UTC), 5*time.Millisecond
	for range 8 {
		fmt.Fprintf(&b, `{"level":"error","ts":%q,"msg":"Reconciler error","controller":"widget","controllerKind":"ConfigMap","namespace":"team-a","name":"w1","error":"sync with backend: 503 Service Unavailable"}`+"\n",
			at.Format(time.RFC3339Nano))
		at, d = at.Add(d), 2*d
	}
	log := filepath.Join(t.TempDir(), "tr.log")
	if err := os.WriteFile(log, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	streams, _, out, _ := genericiooptions.NewTestIOStreams()
	cmd := NewDescribeCommand(genericclioptions.NewConfigFlags(false), streams)
	cmd.SetArgs([]string{"--from-logs", log, "team-a/w1"})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	if want := "`kubectl backoff kick --from-logs " + log + " team-a/w1`"; !strings.Contains(out.String(), want) {
		t.Errorf("describe:\n%s\nwant it to suggest %s", out, want)
	}
}
