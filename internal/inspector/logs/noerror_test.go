package logs

import (
	"strings"
	"testing"
)

// TestNoErrorStated: virtual-kubelet's "requeuing %q due to failed sync"
// (batch 8's 806, verbatim: log.G(ctx).Warnf then AddRateLimited, no error
// on the line) is a failure whose error is not in the log, not its own
// words; the same handler's later lines that state it (": %v", an error
// field) keep their error.
func TestNoErrorStated(t *testing.T) {
	vk := strings.Split(readTestdata(t, "testdata/batch8/806-virtual-kubelet-logrus-warning-requeuing-due-to-failed-sync-3x.log"), "\n")[0]
	if r := wantLineRead(t, vk, "unknown", "kayaks/helloworld-windows", ""); r.Error != noErrorStated {
		t.Errorf("error %q, want %q", r.Error, noErrorStated)
	}
	for _, c := range []struct{ line, err string }{
		{`time="2019-05-06T20:27:11Z" level=warning msg="requeuing \"kayaks/web\" due to failed sync: pod not found" node=vk`, "pod not found"},
		{`time="2019-05-06T20:27:11Z" level=warning msg="requeuing \"kayaks/web\" due to failed sync" error="pod not found" node=vk`, "pod not found"},
	} {
		if r := wantLineRead(t, c.line, "unknown", "kayaks/web", c.err); r.Error != c.err {
			t.Errorf("%s: error %q, want %q", c.line, r.Error, c.err)
		}
	}
}
