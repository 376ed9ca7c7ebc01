package cli_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-backoff/kubectl-backoff/internal/cli"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/snapshot"
)

// TestSnapshotFromLogsHoldsEveryKey: snapshot --from-logs pages through a
// log source as through an endpoint (continue tokens), so a log of 2,500
// failing keys — more than two pages of api.MaxLimit — gives a file with
// all 2,500. The line is controller-runtime's zap JSON "Reconciler error"
// (the parser's fixture from controller-runtime v0.6, inspector/logs
// parse_test.go), one per key.
func TestSnapshotFromLogsHoldsEveryKey(t *testing.T) {
	const n = 2500
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, `{"level":"error","ts":%d.081,"logger":"controller-runtime.controller","msg":"Reconciler error","controller":"foo","request":"default/bar-%04d","error":"boom"}`+"\n",
			1617276479+i/100, i)
	}
	dir := t.TempDir()
	log, out := filepath.Join(dir, "controller.log"), filepath.Join(dir, "snap.json")
	if err := os.WriteFile(log, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := run(cli.NewSnapshotCommand, genericiooptions.NewTestIOStreamsDiscard(), "--from-logs", log, "-f", out); err != nil {
		t.Fatalf("snapshot --from-logs: %v", err)
	}
	in, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	f, err := snapshot.Read(in)
	if err != nil {
		t.Fatalf("the file does not read back: %v", err)
	}
	seen := map[string]bool{}
	for _, e := range f.Endpoints {
		for _, k := range e.Keys {
			seen[k.Key] = true
		}
	}
	if len(seen) != n {
		t.Fatalf("snapshot --from-logs holds %d distinct keys, want %d", len(seen), n)
	}
	for i := range n {
		if k := fmt.Sprintf("default/bar-%04d", i); !seen[k] {
			t.Fatalf("snapshot --from-logs lacks %s", k)
		}
	}
}
