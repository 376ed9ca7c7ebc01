package logs

import (
	"slices"
	"strings"
	"testing"
)

// TestLogfmtContJoinsCutValue: a logrus record wrapped by a form at its
// words over nine lines, its message never closed (batch 10's 235,
// https://github.com/kubeflow/pipelines/issues/869, verbatim), is one line
// again, each piece as it was cut; a value closed on a later piece ends
// the record there; an open value is not continued by a record's start,
// a tab-led line, a blank one or a Markdown fence, nor is a line whose
// values are all closed.
func TestLogfmtContJoinsCutValue(t *testing.T) {
	kfp := readTestdata(t, "testdata/batch10/235-kfp-persistence-agent-logrus-permanent-failure-forget-wrapped.log")
	open := `time="2019-02-27T16:32:26Z" level=error msg="Permanent failure while syncing resource `
	next := `time="2019-02-27T16:32:27Z" level=info msg="Success while syncing resource (kubeflow/x)"`
	for _, tt := range []struct {
		name, in string
		want     []string
	}{
		{"kubeflow/pipelines#869", kfp, []string{strings.ReplaceAll(strings.TrimSuffix(kfp, "\n"), "\n", "")}},
		{"closed on its second piece", open + "\n" + `(kubeflow/a): boom" error="x"` + "\n" + next + "\n",
			[]string{open + `(kubeflow/a): boom" error="x"`, next}},
		{"behind a collector's prefix", "2019-02-27T16:32:26.1Z " + open + "\n" + `(kubeflow/a): boom"` + "\n",
			[]string{"2019-02-27T16:32:26.1Z " + open + `(kubeflow/a): boom"`}},
		{"a record's start next", open + "\n" + next + "\n", []string{open, next}},
		{"a tab-led line next", open + "\n\tgoroutine 1\n", []string{open, "\tgoroutine 1"}},
		{"a blank line next", open + "\n\n(kubeflow/a)\n", []string{open, "", "(kubeflow/a)"}},
		{"a fence next", open + "\n```\n", []string{open, "```"}},
		{"its values closed", next + "\n(kubeflow/a)\n", []string{next, "(kubeflow/a)"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := joinRead(tt.in); !slices.Equal(got, tt.want) {
				t.Errorf("joined into\n%q\nwant\n%q", got, tt.want)
			}
		})
	}
}
