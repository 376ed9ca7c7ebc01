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

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// inHouseDialect and inHouseLog are a team's operator and its log: its
// words are its own, at info level, so nothing but the file reads them.
const (
	inHouseDialect = `dialects:
- name: widget-operator
  controller: widget
  limiter: exponential 1s..5m
  lines:
  - regexp: '^sync of widget (?P<key>\S+) failed, retry #(?P<count>\d+): (?P<error>.*)$'
    means: failure
`
	inHouseLog = `2026-12-03T10:00:00Z INFO sync of widget team-a/w1 failed, retry #3: quota exceeded
2026-12-03T10:00:08Z INFO sync of widget team-a/w1 failed, retry #4: quota exceeded
`
)

// An in-house dialect in a file works end to end: get lists its key, describe
// explains it with the project's limiter, top's source serves it; without the
// file the log is "none recognised"; a malformed file is refused with its
// file, line and field, and so is one named in $KUBECTL_BACKOFF_DIALECTS.
func TestDialectFileEndToEnd(t *testing.T) {
	dir := t.TempDir()
	dialect, log, broken := filepath.Join(dir, "widget.yaml"), filepath.Join(dir, "widget.log"), filepath.Join(dir, "broken.yaml")
	for f, s := range map[string]string{dialect: inHouseDialect, log: inHouseLog, broken: "dialects:\n- name: w\n  lines:\n  - regexp: '(['\n    means: failure\n"} {
		if err := os.WriteFile(f, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	cf := genericclioptions.NewConfigFlags(false)
	run := func(cmd func(*genericclioptions.ConfigFlags, genericiooptions.IOStreams) interface {
		SetArgs([]string)
		Execute() error
	}, args ...string) (string, string, error) {
		streams, _, out, errOut := genericiooptions.NewTestIOStreams()
		c := cmd(cf, streams)
		c.SetArgs(args)
		err := c.Execute()
		return out.String(), errOut.String(), err
	}
	get := func(cf *genericclioptions.ConfigFlags, s genericiooptions.IOStreams) interface {
		SetArgs([]string)
		Execute() error
	} {
		return NewGetCommand(cf, s)
	}
	describe := func(cf *genericclioptions.ConfigFlags, s genericiooptions.IOStreams) interface {
		SetArgs([]string)
		Execute() error
	} {
		return NewDescribeCommand(cf, s)
	}

	out, errOut, err := run(get, "--from-logs", log)
	if err != nil || strings.Contains(out, "team-a/w1") || !strings.Contains(errOut, "none recognised") {
		t.Fatalf("without the file: %v\n%s\n%s; want none recognised", err, out, errOut)
	}
	out, errOut, err = run(get, "--from-logs", log, "--dialect", dialect)
	if err != nil || !strings.Contains(out, "team-a/w1") || !strings.Contains(errOut, "widget-operator (zap console) 2") {
		t.Errorf("get with the file: %v\n%s\n%s; want team-a/w1, read by widget-operator", err, out, errOut)
	}
	out, _, err = run(describe, "--from-logs", log, "--dialect", dialect, "team-a/w1")
	if err != nil || !strings.Contains(out, "4 failures") || !strings.Contains(out, "quota exceeded") || !strings.Contains(out, "1s..5m0s (widget-operator") {
		t.Errorf("describe with the file: %v\n%s; want 4 failures (stated), its error, the project's limiter", err, out)
	}

	o := &TopOptions{attachOptions: newAttachOptions(cf), Refresh: time.Second, IOStreams: genericiooptions.IOStreams{In: &bytes.Buffer{}, Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}}}
	o.fromLogs.source, o.fromLogs.dialectFiles, o.fromLogs.since = log, []string{dialect}, time.Hour
	s := openTopSource(t, o)
	if l, err := s.Keys(context.Background(), inspector.KeyQuery{}); err != nil || len(l.Items) != 1 || l.Items[0].State != api.StateBackoff {
		t.Errorf("top's source: %+v, %v; want team-a/w1 backing off", l, err)
	}

	_, _, err = run(get, "--from-logs", log, "--dialect", broken)
	if err == nil || !strings.Contains(err.Error(), "--dialect "+broken+":4: regexp:") {
		t.Errorf("broken file: %v; want it refused at line 4, field regexp", err)
	}
	t.Setenv(dialectsEnv, broken)
	if _, _, err = run(get, "--from-logs", log); err == nil || !strings.Contains(err.Error(), broken+":4") {
		t.Errorf("broken file in $%s: %v; want it refused with its line", dialectsEnv, err)
	}
}
