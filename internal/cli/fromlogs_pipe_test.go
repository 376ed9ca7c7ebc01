package cli

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
)

// certManagerLog is a real cert-manager v1.2 log (cert-manager/cert-manager#3772):
// one "re-queuing item due to error processing" of NAMESPACE/INGRESS_NAME-tls,
// klog text stamped E0315 12:33:57.042284, with no year.
const certManagerLog = "../inspector/logs/testdata/wild/cert-manager-3772.log"

// pipeFile is a pipe carrying the file at path, as `cat path |` gives it:
// a stdin that is not a regular file, closed once the file is written.
func pipeFile(t *testing.T, path string) *os.File {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	go func() {
		defer w.Close()
		_, _ = w.Write(raw)
	}()
	return r
}

// `cat flux2-4509.log | kubectl backoff describe --from-logs -`: a pipe
// whose newest line is over an hour old is a saved log piped in, judged as
// of its last line as the file itself is: the two Kustomizations failed
// at 05:55:53 and 05:56:07 on 2024-02-12, each stating "next try in
// 30m0s", so as of 05:56:07 both back off; judged at the clock they would
// be unknown, and the controller "healthy".
func TestDescribePipedOldLogIsJudgedAsOfItsEnd(t *testing.T) {
	streams, _, out, errOut := genericiooptions.NewTestIOStreams()
	streams.In = pipeFile(t, fluxLog)
	cmd := NewDescribeCommand(genericclioptions.NewConfigFlags(false), streams)
	cmd.SetArgs([]string{"--from-logs", "-", "--controller", "kustomization"})
	if err := cmd.Execute(); err != nil {
		t.Fatalf("describe: %v (stderr: %s)", err, errOut)
	}
	for _, want := range []string{"Situation:   failing", "Keys: 2 tracked: 2 backoff"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("describe:\n%s\nwant it to say %q", out, want)
		}
	}
	if strings.Contains(out.String(), "healthy") {
		t.Errorf("describe:\n%s\ncalls it healthy", out)
	}
	if want := "--from-logs: 2024-02-12 05:55:53 UTC to 05:56:07, 2 keys, read as of its last line: ages and countdowns count from 2024-02-12 05:56:07 UTC, not from now;"; !strings.Contains(errOut.String(), want) {
		t.Errorf("read note:\n%s\nwant it to say %q", errOut, want)
	}

	// One key: its retry counts from the log's end, not from now.
	streams, _, out, errOut = genericiooptions.NewTestIOStreams()
	streams.In = pipeFile(t, fluxLog)
	cmd = NewDescribeCommand(genericclioptions.NewConfigFlags(false), streams)
	cmd.SetArgs([]string{"--from-logs", "-", "flux-system/apps-unstable"})
	if err := cmd.Execute(); err != nil {
		t.Fatalf("describe: %v (stderr: %s)", err, errOut)
	}
	if want := "Next retry at 06:26:07 (30m0s after the log's last line)"; !strings.Contains(out.String(), want) {
		t.Errorf("describe:\n%s\nwant it to say %q", out, want)
	}
}

// `cat cert-manager-3772.log | kubectl backoff get --from-logs -`: its one
// failure is months old, so as of that line the key backs off (cert-manager's
// limiter, 5s first); at the clock it would be unknown.
func TestGetPipedOldLogIsJudgedAsOfItsEnd(t *testing.T) {
	// klog has no year: the line is placed in the year that puts it before
	// now. Within an hour or so after 15 March 12:33:57 it is a fresh line.
	line := time.Date(time.Now().UTC().Year(), 3, 15, 12, 33, 57, 0, time.UTC)
	if d := time.Since(line); d > -24*time.Hour && d < 2*oldLog {
		t.Skipf("the fixture's line (no year) is %v old today: not an old log", d)
	}
	streams, _, out, errOut := genericiooptions.NewTestIOStreams()
	streams.In = pipeFile(t, certManagerLog)
	cmd := NewGetCommand(genericclioptions.NewConfigFlags(false), streams)
	cmd.SetArgs([]string{"--from-logs", "-"})
	if err := cmd.Execute(); err != nil {
		t.Fatalf("get: %v (stderr: %s)", err, errOut)
	}
	if !strings.Contains(out.String(), "NAMESPACE/INGRESS_NAME-tls   backoff") {
		t.Errorf("get:\n%s\nwant NAMESPACE/INGRESS_NAME-tls backing off as of the log's end", out)
	}
	if want := "1 key, read as of its last line: ages and countdowns count from "; !strings.Contains(errOut.String(), want) {
		t.Errorf("read note:\n%s\nwant it to say %q", errOut, want)
	}
}

// `cat flux2-4509.log | kubectl backoff top --from-logs -`, then a fresh
// line: while the pipe's newest line is the old log's, top judges it as of
// that line and says so (source.endsAt, which the header shows); a line of now
// makes it live, judged at the clock, with no source.endsAt.
func TestTopPipedOldLogThenAFreshLine(t *testing.T) {
	raw, err := os.ReadFile(fluxLog)
	if err != nil {
		t.Fatal(err)
	}
	s, w := openPipedTop(t)
	defer s.Close()
	if _, err := w.Write(raw); err != nil {
		t.Fatal(err)
	}
	end := time.Date(2024, 2, 12, 5, 56, 7, 288_000_000, time.UTC)
	// waitFor polls the overview (the read runs behind) until ok, or fails.
	waitFor := func(what string, ok func(*inspector.Overview) bool) *inspector.Overview {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for {
			ov, err := s.Overview(context.Background())
			if err == nil && ok(ov) {
				return ov
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: not within 10s: %+v, %v", what, ov, err)
			}
			time.Sleep(time.Millisecond) // polling a condition, with a deadline
		}
	}
	ov := waitFor("the old log's two keys", func(ov *inspector.Overview) bool {
		return len(ov.Controllers) == 1 && ov.Controllers[0].Keys == 2
	})
	if c := ov.Controllers[0]; ov.Source == nil || !ov.Source.EndsAt.Equal(end) || c.Counts["backoff"] != 2 {
		t.Errorf("old log: source %+v, counts %v; want it to end at %v, and 2 backoff", ov.Source, c.Counts, end)
	}
	// The same controller-runtime line as TestTopFromLogsFollowsAPipe's, stamped now.
	fresh := strings.Replace(errorLine, "2026-11-30T08:24:45Z", time.Now().UTC().Format(time.RFC3339), 1)
	if _, err := w.WriteString(fresh); err != nil {
		t.Fatal(err)
	}
	waitFor("live again after a fresh line", func(ov *inspector.Overview) bool {
		for _, c := range ov.Controllers {
			if ov.Source.Ended() || c.Name == "widget" && c.Keys != 1 {
				return false
			}
		}
		return len(ov.Controllers) == 2
	})
}
