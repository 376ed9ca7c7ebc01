package cli

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// TestReadNoteFitsATerminal: the read note's sentences wrap between words
// at a terminal's width (at 80 columns the terminal broke "its last lin\ne"),
// with the same words as a pipe gets, where each stays one line.
func TestReadNoteFitsATerminal(t *testing.T) {
	store := readLog(t, "../inspector/logs/testdata/batch17/1711-dra-resourceslice-klog-keyless-processing-error-node-missing-create-denied-burst.log")
	now := time.Date(2026, 12, 8, 9, 0, 0, 0, time.UTC)
	var piped bytes.Buffer
	printReadNote(&piped, store.Stats(), store.LogRead(), true, now, nil)
	if !strings.Contains(piped.String(), "read as of its last line: ages and countdowns count from") {
		t.Fatalf("piped note:\n%s\nwant the saved log's time base", piped.String())
	}
	defer screenWidthForTest(80)()
	var term bytes.Buffer
	printReadNote(&term, store.Stats(), store.LogRead(), true, now, nil)
	for _, l := range strings.Split(strings.TrimSuffix(term.String(), "\n"), "\n") {
		if ansi.StringWidth(l) > 80 {
			t.Errorf("a line of %d cells at 80 columns: %q", ansi.StringWidth(l), l)
		}
	}
	// The unreadable line's example is cut at the width, not wrapped.
	sentences := func(note string) string {
		var kept []string
		for _, l := range strings.Split(note, "\n") {
			if !strings.Contains(l, "resourceslicecontroller.go:529]") {
				kept = append(kept, l)
			}
		}
		return strings.Join(strings.Fields(strings.Join(kept, " ")), " ")
	}
	if sentences(piped.String()) != sentences(term.String()) {
		t.Errorf("the terminal's note has other words than the pipe's:\n%s\n---\n%s", term.String(), piped.String())
	}
	if strings.Count(term.String(), "\n") <= strings.Count(piped.String(), "\n") {
		t.Errorf("at 80 columns the note was not wrapped:\n%s", term.String())
	}
}
