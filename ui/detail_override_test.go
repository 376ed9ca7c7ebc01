package ui

import (
	"strings"
	"testing"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/objstatus"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/view"
)

// TestDetailVerdictOverridden: the key detail view says the status when
// evidence overrode kstatus — "not ready yet (InProgress); kstatus, which
// reads only its conditions, would say Current" — not a bare word another
// view contradicts (issue 41's newcomer, item 7), nor "Object Failed (kstatus
// alone: Current)", whose "Failed" read as a key's state and whose
// "kstatus" was not said (newcomer ui11). The override itself is describe.Describe's
// (inspector's TestDescribeVerdictIsWhys).
func TestDetailVerdictOverridden(t *testing.T) {
	m := loaded(t, 120, 60)
	m.pushView(modeDetail, view.Detail{C: m.c, Controller: "naive", Key: "demo/naive-00001"})
	d := fixedDetail()
	v := d.Object.Verdict
	v.Status, v.KStatus, v.Override = objstatus.InProgress, objstatus.Current, objstatus.RuleControllerFailing
	v.Message = `not Current: controller "naive" is failing on it (14 consecutive failures, from its endpoint); a ConfigMap has no status for kstatus to read`
	d.Object.Verdict = v
	lines := splitLines(screen(send(t, m, view.DetailFetchedMsg{Controller: "naive", Key: "demo/naive-00001", Data: d, FetchedAt: t0})))
	for i, l := range lines {
		if strings.HasPrefix(l, "Object: ") {
			if !strings.HasPrefix(squash(strings.Join(lines[i:i+2], " ")), squash("Object: not ready yet (InProgress); kstatus, which reads only its conditions, would say Current: generation 3")) || !strings.Contains(squash(strings.Join(lines[i:i+4], " ")), squash(v.Message)) {
				t.Errorf("verdict lines:\n%s\nwant the status with kstatus's word, then the evidence", strings.Join(lines[i:i+4], "\n"))
			}
			return
		}
	}
	t.Errorf("no verdict line:\n%s", strings.Join(lines, "\n"))
}
