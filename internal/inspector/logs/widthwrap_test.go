package logs

import (
	"fmt"
	"slices"
	"strings"
	"syscall"
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

// BenchmarkWrapChecks is what the wrap joiners cost a line of a log not
// wrapped, every line of which they see: widthWrap's and logfmtCont's
// start on a zap JSON line (BenchmarkRead1M's shape), a klog line and a
// logfmt line, each followed by a record of its own format.
func BenchmarkWrapChecks(b *testing.B) {
	for _, bc := range []struct{ name, line string }{
		{"json", `{"level":"error","ts":"2026-01-01T00:00:00.000Z","msg":"Reconciler error","controller":"widget","controllerGroup":"example.com","controllerKind":"Widget","Widget":{"name":"w1","namespace":"default"},"namespace":"default","name":"w1","reconcileID":"0d4f5e6a-1b2c-4d3e-8f9a-0b1c2d3e4f5a","error":"dial tcp 10.0.0.7:443: connect: connection refused"}`},
		{"klog", `E0531 13:41:24.333279       1 controller.go:329] "Reconciler error" err="failed to reconcile VM: boom" controller="proxmoxmachine" namespace="default" name="m1"`},
		{"logfmt", `time="2019-02-27T16:32:26Z" level=error msg="error syncing 'demo0/hu002': handler helm-controller: boom, requeuing"`},
	} {
		b.Run(bc.name, func(b *testing.B) {
			line := []byte(bc.line)
			ahead := []byte(bc.line + "\n" + bc.line + "\n")
			var w widthWrap
			var c logfmtCont
			// CPU, not wall: the machine this runs on is shared.
			var ru0, ru1 syscall.Rusage
			syscall.Getrusage(syscall.RUSAGE_SELF, &ru0)
			defer func() {
				syscall.Getrusage(syscall.RUSAGE_SELF, &ru1)
				cpu := ru1.Utime.Nano() + ru1.Stime.Nano() - ru0.Utime.Nano() - ru0.Stime.Nano()
				b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
			}()
			for b.Loop() {
				opens := nextOpens(ahead)
				if w.start(line, ahead, opens) || c.start(line, ahead, opens) {
					b.Fatal("joined a record followed by a record")
				}
			}
		})
	}
}
