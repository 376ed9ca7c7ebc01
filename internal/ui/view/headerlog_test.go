package view

import (
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestCutLogName: a log's name in the header gives up its directories from
// the start, then the middle of its file name; a name that is no path is
// cut in its middle; one that fits is whole.
func TestCutLogName(t *testing.T) {
	const kubelet = "logs: /var/log/pods/widget-system_widget-operator-7d9f8b6c5d-x2k4p_0b6e4a1c/manager/0.log"
	for _, tt := range []struct {
		name string
		n    int
		want string
	}{
		{"logs: widgets.log", 24, "logs: widgets.log"},
		{kubelet, 24, "logs: …/manager/0.log"},
		{kubelet, 60, "logs: …/manager/0.log"}, // the next directory is 55 cells
		{"logs: /work/testdata/batch10/234-harvester-logrus-wrangler-two-keys-same-second.log", 24, "logs: 234-…me-second.log"},
		{"logs: -l app.kubernetes.io/name=widget-operator,tier=control", 24, "logs: -l a…,tier=control"},
	} {
		got := cutLogName(tt.name, tt.n)
		if got != tt.want || ansi.StringWidth(got) > tt.n {
			t.Errorf("cutLogName(%q, %d) = %q, want %q", tt.name, tt.n, got, tt.want)
		}
	}
}
