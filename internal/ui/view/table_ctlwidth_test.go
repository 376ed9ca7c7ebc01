package view

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/widget"
)

// TestControllerTakesTheWidthItNeeds: at 160 columns CONTROLLER showed
// "replicaset-controll…" of kube-controller-manager's log with room to
// spare (newcomer ui11); it is as wide as its widest name while LAST
// ERROR keeps a quarter of the width (giveBack), up to a fifth of the
// width (at 100 columns a name is cut at 20 cells, as before).
func TestControllerTakesTheWidthItNeeds(t *testing.T) {
	at := time.Date(2026, 12, 7, 22, 45, 0, 0, time.UTC)
	const msg = `sync "q4/web-5fc9f4bf66" failed with pods "web-5fc9f4bf66-26t7q" is forbidden: exceeded quota: q, requested: pods=1, used: pods=0, limited: pods=0`
	page := &inspector.KeyList{ServerTime: at}
	for _, k := range []struct{ ctl, key string }{{"replicaset-controller", "q4/web-5fc9f4bf66"}, {"deployment-controller", "q4/web"}} {
		page.Items = append(page.Items, inspector.PodKey{Key: api.Key{Controller: k.ctl, Key: k.key,
			State: api.StateBackoff, Failures: 5, NextRetryAt: at.Add(8 * time.Second),
			Delay: metav1.Duration{Duration: 8 * time.Second}, DelaySource: "item-exponential",
			LastError: &api.ErrorRecord{Message: msg, At: at}}})
	}
	ov := &inspector.Overview{ServerTime: at, Controllers: []api.Controller{{Name: "replicaset-controller"}, {Name: "deployment-controller"}}}
	for _, tc := range []struct {
		width int
		whole bool
	}{{160, true}, {200, true}, {100, false}} {
		c := &Common{Width: tc.width, Height: 24, Styles: widget.NewStyles(true), Keys: NewKeyMap(), SeenMarks: map[string]bool{},
			Opts: Options{Clock: func() time.Time { return at }, Refresh: time.Second}}
		m := &TopModel{C: c, Overview: ov, Page: page, fetchedAt: at}
		lines := TopTable{C: c, M: m, Cursor: 0, Shown: 2}.Lines()
		table := ansi.Strip(strings.Join(lines, "\n"))
		if got := strings.Contains(table, "replicaset-controller "); got != tc.whole {
			t.Errorf("%d columns: the controller's whole name shown: %v, want %v\n%s", tc.width, got, tc.whole, table)
		}
		var rows []explain.KeyRow
		for i := range page.Items {
			rows = append(rows, explain.NewKeyRow(&page.Items[i].Key, "", at))
		}
		for _, col := range (TopTable{C: c, M: m, Cursor: 0, Shown: 2}).columns(rows) {
			if col.message && col.width < tc.width/4 {
				t.Errorf("%d columns: LAST ERROR has %d cells, less than a quarter of the width\n%s", tc.width, col.width, table)
			}
		}
	}
}
