package logs

import (
	"os"
	"strings"
	"testing"
)

// TestMetacontrollerLoopNotAKey: metacontroller's CompositeController
// before its work queues (2018-02) logged each parent its ticker's sweep
// failed to sync and went on (batch24/2415's real lines): a loop line, no
// key; its work queue's "failed to sync KIND \"ns/x\"" after them is a
// failure (batch24/2405).
func TestMetacontrollerLoopNotAKey(t *testing.T) {
	raw, err := os.ReadFile("testdata/batch24/2415-negative-metacontroller-2018-klog-cant-sync-polling-loop-no-work-queue.log")
	if err != nil {
		t.Fatal(err)
	}
	loops := 0
	for _, l := range strings.Split(string(raw), "\n") {
		if r, ok := Parse([]byte(l), corpusClock); ok {
			if r.What != LoopLine {
				t.Errorf("%q: read as %v (%s), want a loop line", l, r.What, meaning(r))
			}
			loops++
		}
	}
	if loops != 3 {
		t.Errorf("%d loop lines, want 3", loops)
	}
	if s := readLog(t, corpusClock, strings.Split(strings.TrimSpace(string(raw)), "\n")...); len(s.names()) != 0 {
		t.Errorf("controllers %v, want none", s.names())
	}
	r, ok := Parse([]byte(`E0806 15:42:02.841345       1 controller.go:223] failed to sync CustomResourceExample "demo-injected/service": can't update status for CustomResourceExample demo-injected/service: the server could not find the requested resource`), corpusClock)
	if !ok || r.What != ErrorLine || r.Key() != "demo-injected/service" {
		t.Errorf("the work queue's line: ok %v, what %v, key %q; want a failure of demo-injected/service", ok, r.What, r.Key())
	}
}
