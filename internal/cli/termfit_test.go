package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// get on an 80-column terminal: no row wraps. SOURCE goes first, then each
// row is cut at the edge with "…", its error first; without a terminal
// (width 0) the table is whole.
func TestPrintKeysFitsTheTerminal(t *testing.T) {
	var b bytes.Buffer
	printKeysFit(&b, printKeyList(), false, false, 80)
	out := b.String()
	wantWithin(t, out, 80)
	if strings.Contains(out, "SOURCE") || !strings.Contains(out, "CONTROLLER") || !strings.Contains(out, "default/w1") {
		t.Errorf("fitted table:\n%s\nwant every key, SOURCE left out", out)
	}
	b.Reset()
	printKeysFit(&b, printKeyList(), false, false, 0)
	if !strings.Contains(b.String(), "SOURCE") || !strings.Contains(b.String(), "connection refused") {
		t.Errorf("no terminal: table\n%s\nwant it whole", b.String())
	}
}

// A note wider than the terminal wraps between words, never inside one; a
// line written in parts (a prompt) goes out as written.
func TestWrapWriterAtWords(t *testing.T) {
	var b bytes.Buffer
	ww := &wrapWriter{w: &b, width: func() int { return 40 }}
	note := "naive — 20 keys failing for 5.1s on the same permanent error: spec.storageClass must be set\n"
	ww.Write([]byte(note))
	for line := range strings.Lines(b.String()) {
		line = strings.TrimSuffix(line, "\n")
		if ansi.StringWidth(line) > 40 {
			t.Errorf("line %q is wider than 40", line)
		}
	}
	words := strings.Fields(note)
	if got := strings.Fields(b.String()); strings.Join(got, " ") != strings.Join(words, " ") {
		t.Errorf("wrapped %q; want the same words, split only between them", b.String())
	}
	b.Reset()
	ww.Write([]byte("forget 20 keys? [y/N] "))
	if b.String() != "forget 20 keys? [y/N] " {
		t.Errorf("a prompt came out as %q", b.String())
	}
}

// TestWatchKeepsController: get -w takes its columns from its first list;
// a first page of one controller's keys (the demo's naive ones, --limit 3)
// left CONTROLLER out for the whole stream, whose later rows may be
// another's. Unless --controller names one, it stays; get without -w,
// which prints that page alone, still leaves it out.
func TestWatchKeepsController(t *testing.T) {
	l := printKeyList()
	l.Items = l.Items[:2] // widget's keys alone
	if c := fitKeyCols(l, false, false, 60); c.noController {
		t.Errorf("get -w without --controller: CONTROLLER left out (%+v)", c)
	}
	if c := fitKeyCols(l, false, true, 60); !c.noController {
		t.Errorf("one controller's keys, named: CONTROLLER kept (%+v)", c)
	}
}
