package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"
)

// A --dialect whose lines read none of the log's (here a failure regexp
// with no key group, the commonest first mistake) is no reason to tell its
// author to write a dialect: the note sends them to --explain-lines, which
// says line by line what each pattern lacked; the lines are counted as
// failures not read in either format (zap console, logfmt: the regexp
// matched their message but named no key).
func TestDialectMatchingNothingSaysExplainLines(t *testing.T) {
	dir := t.TempDir()
	dialect := filepath.Join(dir, "widget.yaml")
	noKey := strings.Replace(inHouseDialect, `(?P<key>\S+)`, `\S+`, 1)
	logfmt := "time=2026-12-03T10:00:00Z level=info msg=\"sync of widget team-a/w1 failed, retry #3: quota exceeded\"\n"
	for name, log := range map[string]string{"zap console": inHouseLog, "logfmt": logfmt} {
		file := filepath.Join(dir, strings.ReplaceAll(name, " ", "-")+".log")
		for f, s := range map[string]string{dialect: noKey, file: log} {
			if err := os.WriteFile(f, []byte(s), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		streams, _, out, errOut := genericiooptions.NewTestIOStreams()
		cmd := NewGetCommand(genericclioptions.NewConfigFlags(false), streams)
		cmd.SetArgs([]string{"--from-logs", file, "--dialect", dialect})
		if err := cmd.Execute(); err != nil {
			t.Fatal(err)
		}
		note := errOut.String()
		if strings.Contains(note, "can be taught with --dialect") || !strings.Contains(note, "--explain-lines says, line by line") {
			t.Errorf("%s: get --dialect reading no line:\n%s%s\nwant it to send to --explain-lines, not to advise --dialect", name, note, out)
		}
	}
}
