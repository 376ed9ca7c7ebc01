package logs

import (
	"strings"
	"testing"
)

// TestGluedKlog: a log viewer's time written against a klog header, no
// space between, is taken off. The rule was written from batch22/2207
// (Rancher 2's "DD.MM.YYYY HH:MM:SS"); the second line, Rancher 1's
// "M/D/YYYY H:MM:SS AM" (https://github.com/rancher/rancher/issues/4587,
// sangeethah, 2016-04-28, verbatim), was tried only after it was written.
// A klog line, a console line and a word ending in a klog-like level and
// date with no time after it are left as they were.
func TestGluedKlog(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{`14.12.2017 16:05:05E1214 15:05:05.467641   33584 reconciler.go:367] Could not construct volume information: no volume plugin matched`,
			`E1214 15:05:05.467641   33584 reconciler.go:367] Could not construct volume information: no volume plugin matched`},
		{`4/28/2016 9:29:37 AME0428 16:29:37.108977   21191 kubelet.go:1183] Unable to update node status: update node status exceeds retry count`,
			`E0428 16:29:37.108977   21191 kubelet.go:1183] Unable to update node status: update node status exceeds retry count`},
		{`E1214 15:05:05.467641   33584 reconciler.go:367] x`, `E1214 15:05:05.467641   33584 reconciler.go:367] x`},
		{"2026-12-07T14:07:19Z\tERROR\tfailed to sync default/b1\t{}", "2026-12-07T14:07:19Z\tERROR\tfailed to sync default/b1\t{}"},
		{`version-E1214 is out`, `version-E1214 is out`},
	} {
		_, body, fm, _ := split([]byte(tt.in))
		if got := string(body); got != tt.want {
			t.Errorf("split(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if strings.HasPrefix(tt.want, "E1") && fm != fmtKlog {
			t.Errorf("split(%q): format %v, want klog", tt.in, fm)
		}
	}
}
