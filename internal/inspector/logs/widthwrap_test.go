package logs

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// joinRead is eachLine's joining of in, the input after each line
// buffered as a saved file's is.
func joinRead(in string) []string {
	var j joiner
	var out []string
	emit := func(b []byte) { out = append(out, strings.TrimRight(string(b), "\n")) }
	for rest := in; rest != ""; {
		n := strings.IndexByte(rest, '\n') + 1
		if n == 0 {
			n = len(rest)
		}
		line := []byte(rest[:n])
		rest = rest[n:]
		j.release(line, emit)
		j.ahead = []byte(rest)
		j.feed(line, emit)
	}
	j.flush(emit)
	return out
}

// TestWidthWrappedLogs: training excerpts of five formats, hard-wrapped as
// a terminal does at 80, 120 and 160 columns (pastedamages_test.go's
// hardWrap, the tabs shown as spaces), are joined back to their lines as
// the terminal showed them: klog (batch 3's 82, minio's), logrus text
// (batch 10's 232, fleet's), logfmt (batch 10's 218, grafana-agent's),
// zap JSON (batch 6's 106, CDI's), logrus on a TTY (batch 6's 117,
// jaeger-operator's); and so are they when indented after the wrap.
func TestWidthWrappedLogs(t *testing.T) {
	for _, f := range []string{
		"testdata/batch3/82-minio-operator-klog-error-syncing-7x.log",
		"testdata/batch10/232-fleet-logrus-wrangler-error-syncing-8x-same-key.log",
		"testdata/batch10/218-grafana-agent-operator-logfmt-reconciler-error-node-key-in-err.log",
		"testdata/batch6/106-cdi-json-reconciler-error-logger-name-2x.log",
		"testdata/batch6/117-jaeger-operator-logrus-tty-failed-to-apply-3x.log",
	} {
		log := readTestdata(t, f)
		var want []string
		for _, l := range strings.Split(strings.TrimSuffix(log, "\n"), "\n") {
			want = append(want, expandTabs(l))
		}
		for _, width := range []int{80, 120, 160} {
			t.Run(fmt.Sprintf("%s at %d", f[strings.LastIndexByte(f, '/')+1:], width), func(t *testing.T) {
				wrapped := strings.Join(hardWrap(width)(strings.Split(strings.TrimSuffix(log, "\n"), "\n"), make([]time.Time, len(want))), "\n") + "\n"
				if got := joinRead(wrapped); !slices.Equal(got, want) {
					t.Errorf("joined %d lines into %d, want the %d lines:\n%s", strings.Count(wrapped, "\n"), len(got), len(want), strings.Join(got, "\n"))
				}
				// Indented after the wrap (a Markdown code block, batch 5's
				// 513): every piece carries the indent, the record it once.
				for _, indent := range []string{"    ", "\t"} {
					lines := strings.Split(strings.TrimSuffix(wrapped, "\n"), "\n")
					in := strings.Join(prefixed(indent)(lines, make([]time.Time, len(lines))), "\n") + "\n"
					if got := joinRead(in); !slices.Equal(got, prefixed(indent)(want, make([]time.Time, len(want)))) {
						t.Errorf("indented by %q: joined %d lines into %d, want the %d lines:\n%s", indent, len(lines), len(got), len(want), strings.Join(got, "\n"))
					}
				}
			})
		}
	}
}

// TestWidthWrapNeedsEvidence: lines that do not open a record after a
// log's widest line are left alone when nothing says the log was
// wrapped: a stack trace after a record no wider than the one before it
// (wild's kubeblocks-2436), the same record twice, indented, each with its
// continuation (batch 8's 809 indented: their lines open records after the
// indent), one record of two lines (no other record to show how the log's
// lines open), and a line whose next one is not buffered yet (a live log).
func TestWidthWrapNeedsEvidence(t *testing.T) {
	kubeblocks := readTestdata(t, "testdata/wild/kubeblocks-2436.log")
	nack := readTestdata(t, "testdata/batch8/809-nack-klog-unhandled-error-failed-to-process-stream-key-in-events.log")
	rec := `E0904 11:45:35.756060       1 mpi_job_controller.go:372] error syncing 'default/mj-mpijob': Operation cannot be fulfilled on mpijobs.kubeflow.org "mj-mpijob": t`
	nackLines := strings.Split(strings.TrimSuffix(nack, "\n"), "\n")
	indented := strings.Join(prefixed("    ")(nackLines, make([]time.Time, len(nackLines))), "\n") + "\n"
	for _, tt := range []struct{ name, log string }{
		{"a stack trace after the last record", kubeblocks},
		{"an indented block", indented},
		{"one record", rec + "\nhe object has been modified; please apply your changes\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			want := strings.Split(strings.TrimSuffix(tt.log, "\n"), "\n")
			if got := joinRead(tt.log); !slices.Equal(got, want) {
				t.Errorf("joined into %q, want the lines as they are", got)
			}
		})
	}
	t.Run("a live log", func(t *testing.T) {
		var j joiner
		var out []string
		emit := func(b []byte) { out = append(out, string(b)) }
		for _, l := range []string{rec + "\n", "he object\n", rec + "\n", "he object\n", rec + "\n"} {
			j.release([]byte(l), emit)
			j.ahead = nil // nothing buffered after the line
			j.feed([]byte(l), emit)
		}
		j.flush(emit)
		if len(out) != 5 {
			t.Errorf("joined into %d lines, want the 5 as they came", len(out))
		}
	})
}
