package cli_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-backoff/kubectl-backoff/internal/cli"
)

// get -w --from-logs FILE follows the file, as top does: a key whose
// failure is appended after the list is printed as it comes (kubectl's -w,
// no flag of its own).
func TestGetWatchFollowsALogFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "controller.log")
	line := func(name string) string {
		return fmt.Sprintf(`{"level":"error","ts":%q,"msg":"Reconciler error","controller":"widget","namespace":"default","name":%q,"reconcileID":"a","error":"boom"}`+"\n",
			time.Now().UTC().Format(time.RFC3339Nano), name)
	}
	if err := os.WriteFile(path, []byte(line("w1")), 0o644); err != nil {
		t.Fatal(err)
	}
	out := &syncBuffer{}
	streams := genericiooptions.IOStreams{In: strings.NewReader(""), Out: out, ErrOut: &syncBuffer{}}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		cmd := cli.NewGetCommand(genericclioptions.NewConfigFlags(true), streams)
		cmd.SetArgs([]string{"--from-logs", path, "-w", "--sort", "key"})
		done <- cmd.ExecuteContext(ctx)
	}()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("get -w ended with %v, want nil on interrupt", err)
		}
	}()
	waitFor(t, out, "default/w1", func() {})
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(line("w2")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, out, "default/w2", func() {})
}
