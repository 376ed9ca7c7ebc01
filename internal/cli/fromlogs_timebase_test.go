package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/logs"
)

// fluxLog is a real Flux log (fluxcd/flux2#4509): two Kustomizations
// failing, "next try in 30m0s"; its last line is stamped 05:56:07.288Z on
// 2024-02-12.
var fluxLog = filepath.Join("..", "inspector", "logs", "testdata", "wild", "flux2-4509.log")

// A saved log is judged as of its last line, whatever its age: the note on
// stderr says so with that line's time and how long ago it was, as a
// snapshot says when it was taken; minutes old, it is still not now (the
// countdowns would not move). A live source (a pipe, a TARGET's stream) is
// judged at the clock and says nothing of the kind, however old its lines.
func TestReadNoteSaysTheTimeBase(t *testing.T) {
	store := readLog(t, fluxLog)
	end := time.Date(2024, 2, 12, 5, 56, 7, 288_000_000, time.UTC)
	for _, tc := range []struct {
		name     string
		asOfEnd  bool
		now      time.Time
		want     string
		wantNone string
	}{
		{"saved two minutes ago", true, end.Add(2*time.Minute + 5*time.Second),
			"--from-logs: 05:55:53 to 05:56:07, 2 keys, read as of its last line: ages and countdowns count from 05:56:07 (2m5s ago), not from now;", ""},
		{"saved last year", true, end.Add(365 * 24 * time.Hour),
			"--from-logs: 2024-02-12 05:55:53 UTC to 05:56:07, 2 keys, read as of its last line: ages and countdowns count from 2024-02-12 05:56:07 UTC, not from now;", ""},
		{"live", false, end.Add(365 * 24 * time.Hour),
			"--from-logs: 05:55:53 to 05:56:07, 2 keys: every number is an estimate", "last line"},
	} {
		var b bytes.Buffer
		printReadNote(&b, store.Stats(), store.LogRead(), tc.asOfEnd, tc.now, nil)
		if !strings.Contains(b.String(), tc.want) || (tc.wantNone != "" && strings.Contains(b.String(), tc.wantNone)) {
			t.Errorf("%s:\n%s\nwant it to say %q", tc.name, b.String(), tc.want)
		}
	}
}

// describe of a saved log's key counts its next retry from the log's last
// line in words, through the wire (v1/controllers' source.endsAt) as top's
// detail reads it: "in 30m0s" would read as from now.
func TestDescribeSavedLogCountsFromItsEnd(t *testing.T) {
	streams, _, out, errOut := genericiooptions.NewTestIOStreams()
	cmd := NewDescribeCommand(genericclioptions.NewConfigFlags(false), streams)
	cmd.SetArgs([]string{"--from-logs", fluxLog, "flux-system/apps-unstable"})
	if err := cmd.Execute(); err != nil {
		t.Fatalf("describe: %v (stderr: %s)", err, errOut)
	}
	// Its failure at 05:56:07 stated "next try in 30m0s": 06:26:07, 30m
	// after the line, which is the log's last.
	if want := "Next retry at 06:26:07 (30m0s after the log's last line)"; !strings.Contains(out.String(), want) {
		t.Errorf("describe:\n%s\nwant it to say %q", out, want)
	}
	if strings.Contains(out.String(), "(in 30m") {
		t.Errorf("describe:\n%s\nsays the retry is in 30m from now", out)
	}
	// The counters' "30m" and "… ago" count from there too, and say so.
	if want := "Counters (as of the log's last line, 05:56:07):"; !strings.Contains(out.String(), want) {
		t.Errorf("describe:\n%s\nwant it to say %q", out, want)
	}
}

// TestReadNoteOneKey: one key is "1 key".
func TestReadNoteOneKey(t *testing.T) {
	store := readLog(t, "../inspector/logs/testdata/wild/cert-manager-3772.log")
	var b bytes.Buffer
	printReadNote(&b, store.Stats(), store.LogRead(), true, time.Date(2026, 3, 15, 12, 35, 0, 0, time.UTC), nil)
	if want := "12:33:57 to 12:33:57, 1 key, read as of its last line"; !strings.Contains(b.String(), want) {
		t.Errorf("read note:\n%s\nwant it to say %q", b.String(), want)
	}
}

// TestDescribeSavedLogWithoutACluster: a saved Flux log described with no
// cluster configured says the object was not read for that reason, not
// client-go's dial error to localhost:8080; and since Flux logs its
// successes ("Reconciliation finished"), the note says they are in the
// log rather than to raise a zap verbosity Flux has no use for.
func TestDescribeSavedLogWithoutACluster(t *testing.T) {
	t.Setenv("KUBECONFIG", "/nonexistent")
	t.Setenv("KUBERNETES_SERVICE_HOST", "")
	streams, _, out, errOut := genericiooptions.NewTestIOStreams()
	cmd := NewDescribeCommand(genericclioptions.NewConfigFlags(false), streams)
	cmd.SetArgs([]string{"--from-logs", fluxLog, "flux-system/apps-unstable"})
	if err := cmd.Execute(); err != nil {
		t.Fatalf("describe: %v (stderr: %s)", err, errOut)
	}
	for _, want := range []string{"not read: no cluster to read it from", "Successes are in this log: a failure streak ends at the next one."} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("describe:\n%s\nwant it to say %q", out, want)
		}
	}
	for _, not := range []string{"8080", "zap-log-level", "Success is not logged"} {
		if strings.Contains(out.String(), not) {
			t.Errorf("describe:\n%s\nsays %q", out, not)
		}
	}
}

// readLog reads a saved log into a store, as --from-logs FILE does.
func readLog(t *testing.T, path string) *logs.Store {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	store := logs.NewStore(logs.Options{})
	if _, _, err := store.Read(context.Background(), f); err != nil {
		t.Fatal(err)
	}
	return store
}

// A range over days prints its dates; impossible times, unknown ones and an
// assumed year are each said, and an impossible time is not the log's end
// (issue #32: a 9999 line made every other key unknown and printed
// "10:00:00 to 23:59:59").
func TestReadNoteTimesNotInvented(t *testing.T) {
	line := func(ts, name string) string {
		return `{"level":"error","ts":"` + ts + `","msg":"Reconciler error","controller":"widget","namespace":"default","name":"` + name + `","reconcileID":"r","error":"boom"}`
	}
	log := strings.Join([]string{
		line("2026-12-01T10:00:00Z", "a"), line("9999-12-31T23:59:59Z", "b"), line("2026-12-03T09:00:00Z", "c"),
		`E1203 09:00:01.000000       1 operator.go:304] Sync "monitoring/k8s" failed: boom`,
	}, "\n") + "\n"
	now := time.Date(2026, 12, 3, 9, 0, 30, 0, time.UTC)
	store := logs.NewStore(logs.Options{Clock: clocktesting.NewFakePassiveClock(now)})
	if _, _, err := store.Read(context.Background(), strings.NewReader(log)); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	printReadNote(&b, store.Stats(), store.LogRead(), true, now, nil)
	for _, want := range []string{
		"2026-12-01 10:00:00 UTC to 2026-12-03 09:00:01 UTC",
		"1 with a time that cannot be true (before 2000, or over a day past this clock), read as unknown",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("note:\n%s\nwant %q", b.String(), want)
		}
	}
	if strings.Contains(b.String(), "9999") || strings.Contains(b.String(), "23:59:59") {
		t.Errorf("note:\n%s\nshows the impossible time", b.String())
	}
}

// The read note says a log shows no successes only when it does not: a
// Flux log (fluxcd/flux2#4509, two failures and no success) is of a family
// that logs its successes where it logs its failures, so their absence is
// no gap in the log; a controller-runtime log at the default level is one.
func TestReadNoteSaysNoSuccessesOnlyWhenTheyAreNotLogged(t *testing.T) {
	now := time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		file string
		says bool
	}{
		{"flux2-4509.log", false},
		{"capz-3107.log", true},
	} {
		raw, err := os.ReadFile(filepath.Join("..", "inspector", "logs", "testdata", "wild", tc.file))
		if err != nil {
			t.Fatal(err)
		}
		store := logs.NewStore(logs.Options{Clock: clocktesting.NewFakePassiveClock(now)})
		if _, _, err := store.Read(context.Background(), bytes.NewReader(raw)); err != nil {
			t.Fatal(err)
		}
		if store.Stats().Records == 0 {
			t.Fatalf("%s: no record read: the test needs its lines", tc.file)
		}
		var b bytes.Buffer
		printReadNote(&b, store.Stats(), store.LogRead(), true, now, nil)
		if got := strings.Contains(b.String(), "this log shows no successes"); got != tc.says {
			t.Errorf("%s: note says no successes %v, want %v:\n%s", tc.file, got, tc.says, b.String())
		}
	}
}
