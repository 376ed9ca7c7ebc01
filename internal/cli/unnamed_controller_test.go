package cli_test

import (
	"context"
	"strings"
	"testing"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/logs"
)

// TestUnnamedControllerIsTheLogReaders: a logrus line of a client-go
// queue that names no controller is read under explain.UnnamedController,
// which the diagnosis then says in words; if the log reader named it
// otherwise, the words would silently stop applying.
func TestUnnamedControllerIsTheLogReaders(t *testing.T) {
	const line = `time="2026-12-07T05:29:41Z" level=error msg="error syncing 'default/foo': connection refused"` + "\n"
	store := logs.NewStore(logs.Options{})
	if _, _, err := store.Read(context.Background(), strings.NewReader(line)); err != nil {
		t.Fatal(err)
	}
	list := store.Controllers()
	if len(list.Controllers) != 1 || list.Controllers[0].Name != explain.UnnamedController {
		t.Fatalf("controllers %+v, want one named %q", list.Controllers, explain.UnnamedController)
	}
}
