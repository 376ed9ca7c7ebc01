package logs

import (
	"strconv"
	"testing"
)

// TestMarkersFindEveryMessage: the prefilter lets through every built-in
// message as a klog text line writes it and as a JSON or logfmt value
// escapes it (prometheus-operator's `Sync "ns/x" failed` in a "msg" is
// `Sync \"ns/x\" failed`), by the dialects' own markers — not by the
// generic reader's words, which may change.
func TestMarkersFindEveryMessage(t *testing.T) {
	own := newMarkerSet(markers[:len(markers)-len(genericMarkers)])
	for _, d := range builtins {
		for _, l := range d.Lines {
			q := strconv.Quote(l.Text)
			for _, line := range []string{"E1203 10:00:05.000000 1 c.go:1] " + l.Text + "x", `{"msg":"` + q[1:len(q)-1] + `x"}`} {
				if !own.has([]byte(line)) {
					t.Errorf("%s: the prefilter skips %s", d.Name, line)
				}
			}
		}
	}
}
