package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/logs"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/why"
	"github.com/kubectl-backoff/kubectl-backoff/ui"
)

// configMapFailure is controller-runtime v0.25's "Reconciler error" (zap
// JSON) of the configmap controller on widgets/name, at second sec.
func configMapFailure(sec int, name string) string {
	return fmt.Sprintf(`{"level":"error","ts":"2026-05-01T11:59:%02dZ","msg":"Reconciler error","controller":"configmap","controllerGroup":"","controllerKind":"ConfigMap","ConfigMap":{"name":%q,"namespace":"widgets"},"namespace":"widgets","name":%q,"reconcileID":"r%d","error":"eu region unavailable"}`+"\n",
		sec, name, name, sec)
}

// failuresListed is each listed object's failures as its controller's log
// counts them (name: total failures).
func failuresListed(l *why.List) map[string]int {
	got := map[string]int{}
	for _, a := range l.Answers {
		n := -1
		if a.Backoff != nil && a.Backoff.Key != nil {
			n = a.Backoff.Key.TotalFailures
		}
		got[a.Object.Name] = n
	}
	return got
}

// waitList lists as the view's refresh does until the failures listed are
// want, up to 10s.
func waitList(ctx context.Context, t *testing.T, opts *ui.ForOptions, what string, want map[string]int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		l, err := opts.List(ctx)
		var got map[string]int
		if err == nil {
			got = failuresListed(l)
		}
		if fmt.Sprint(got) == fmt.Sprint(want) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: listed %v (%v) after 10s, want %v", what, got, err, want)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestTopForFromLogs: `top --for configmaps --from-logs FILE` lists the
// ConfigMaps its log's controller fails on, and follows the file as `top
// --from-logs FILE` does: what is appended is read once (a ConfigMap that
// starts failing after the view opened is listed, the counts go on), and a
// file truncated or rotated under its name is read again from its start,
// the counts going on — where a read of the whole file at each refresh
// forgot what the file no longer held.
func TestTopForFromLogs(t *testing.T) {
	old := tailOptions
	tailOptions = logs.TailOptions{Poll: time.Millisecond}
	t.Cleanup(func() { tailOptions = old })
	file := filepath.Join(t.TempDir(), "op.log")
	write(t, file, configMapFailure(0, "down-1")+configMapFailure(1, "down-1")+configMapFailure(2, "down-1"))

	ctx := context.Background()
	o := forTop(configMapServer(t, "down-1", "settings"))
	o.fromLogs.source = file
	opts, l := forList(ctx, t, o)
	if got := rows(l); len(got) != 1 || got[0] != "down-1 InProgress" || l.Answers[0].ControllerName() != "configmap" {
		t.Fatalf("list %q; want down-1 InProgress alone, by controller configmap", got)
	}
	waitList(ctx, t, opts, "the file as opened", map[string]int{"down-1": 3})

	appendLog(t, file, configMapFailure(3, "settings")+configMapFailure(4, "down-1"))
	waitList(ctx, t, opts, "appended", map[string]int{"down-1": 4, "settings": 1})

	// copytruncate: the file is emptied and written again from its start.
	if err := os.Truncate(file, 0); err != nil {
		t.Fatal(err)
	}
	appendLog(t, file, configMapFailure(5, "settings"))
	waitList(ctx, t, opts, "truncated", map[string]int{"down-1": 4, "settings": 2})

	// Rotated: renamed away, and a new file under the name.
	if err := os.Rename(file, file+".1"); err != nil {
		t.Fatal(err)
	}
	write(t, file, configMapFailure(6, "down-1"))
	waitList(ctx, t, opts, "rotated", map[string]int{"down-1": 5, "settings": 2})

	// A log that is not there is said before the UI opens, with the flag.
	o = forTop(configMapServer(t, "down-1"))
	o.fromLogs.source = filepath.Join(t.TempDir(), "nope.log")
	if _, _, err := o.forOptions(ctx); err == nil || !strings.Contains(err.Error(), "--from-logs") {
		t.Errorf("a missing --from-logs: error %v; want one naming --from-logs", err)
	}
}
