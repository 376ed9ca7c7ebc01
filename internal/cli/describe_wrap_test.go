package cli

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"
)

// TestDescribeWrapsItsDiagnosis: on a terminal of 80 columns describe's
// diagnosis lines (and its Failures line) are wrapped at words, each
// continuation under its text, as the rest of describe reads; a line of
// 300 runes broke wherever the edge fell, back at column 0. Piped, each
// is one line, for grep. The key is a provisioner's given up on
// (batch15/1506: its diagnosis quotes the log's line whole).
func TestDescribeWrapsItsDiagnosis(t *testing.T) {
	t.Setenv("KUBERNETES_SERVICE_HOST", "")
	t.Setenv("KUBECONFIG", "")
	t.Setenv("HOME", t.TempDir())
	const log = "../inspector/logs/testdata/batch15/1506-sig-storage-provisioner-klog-giving-up-syncing-claim-volume-terminal.log"
	describe := func(width int) string {
		old := describeWidth
		describeWidth = func(io.Writer) int { return width }
		defer func() { describeWidth = old }()
		var out bytes.Buffer
		cmd := NewDescribeCommand(genericclioptions.NewConfigFlags(true), genericiooptions.IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &bytes.Buffer{}})
		cmd.SetArgs([]string{"--from-logs", log, "archive-2025-q3"})
		if err := cmd.Execute(); err != nil {
			t.Fatal(err)
		}
		return out.String()
	}
	section := func(out string) []string {
		_, after, _ := strings.Cut(out, "Diagnosis:\n")
		body, _, _ := strings.Cut(after, "\n\n")
		return strings.Split(body, "\n")
	}
	piped, wrapped := section(describe(0)), section(describe(80))
	if len(wrapped) <= len(piped) {
		t.Fatalf("80 columns: %d lines, piped %d: nothing wrapped:\n%s", len(wrapped), len(piped), strings.Join(wrapped, "\n"))
	}
	for _, l := range wrapped {
		if w := ansi.StringWidth(l); w > 80 || !strings.HasPrefix(l, "  ") {
			t.Errorf("a line of %d cells, or not under the section's indent: %q", w, l)
		}
	}
	for _, l := range piped {
		if !strings.HasPrefix(l, "  ") || strings.HasPrefix(l, "   ") {
			t.Errorf("piped: %q is not one line of its own", l)
		}
	}
	// The same words: each piped line is its wrapped lines joined.
	if got, want := strings.Join(strings.Fields(strings.Join(wrapped, " ")), " "), strings.Join(strings.Fields(strings.Join(piped, " ")), " "); got != want {
		t.Errorf("wrapping changed the words:\n%s\nwant\n%s", got, want)
	}
	if out := describe(80); !strings.Contains(out, "  Failures:       5 failures (3 logged, 2 before them as the log states), over 3\n                  reconciles\n") {
		t.Errorf("the Failures line is not wrapped under its value:\n%s", out)
	}
}
