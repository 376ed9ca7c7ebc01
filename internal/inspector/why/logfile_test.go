package why

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/kubernetes/fake"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/logs"
)

// configMapOperatorLog reads the log a real controller-runtime operator
// wrote while failing on the ConfigMap w/c1 (testdata/README.md).
func configMapOperatorLog(t *testing.T, controller string) *LogFile {
	return savedLog(t, "testdata/logs/configmap-operator.log", "ctl.log", controller)
}

// kcmQuotaLog reads a real kube-controller-manager's log of a ReplicaSet a
// quota refuses (testdata/README.md), as --from-logs kcm.log would.
func kcmQuotaLog(t *testing.T, controller string) *LogFile {
	return savedLog(t, "testdata/logs/kcm-replicaset-quota.log", "kcm.log", controller)
}

// savedLog reads the log at path into a store, named name for the answer.
func savedLog(t *testing.T, path, name, controller string) *LogFile {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	store := logs.NewStore(logs.Options{})
	if _, _, err := store.Read(context.Background(), f); err != nil {
		t.Fatal(err)
	}
	return &LogFile{Store: store, Name: name, Controller: controller}
}

// configMapC1 is w/c1 as the user created it: a ConfigMap has no status,
// so managedFields name no status manager.
func configMapC1() *unstructured.Unstructured {
	u := &unstructured.Unstructured{}
	u.SetAPIVersion("v1")
	u.SetKind("ConfigMap")
	u.SetNamespace("w")
	u.SetName("c1")
	u.SetManagedFields([]metav1.ManagedFieldsEntry{{Manager: "kubectl-create", Operation: metav1.ManagedFieldsOperationUpdate,
		Time: &metav1.Time{Time: time.Date(2026, 12, 6, 10, 9, 30, 0, time.UTC)}, FieldsType: "FieldsV1",
		FieldsV1: &metav1.FieldsV1{Raw: []byte(`{"f:data":{".":{},"f:ok":{}}}`)}}})
	return u
}

// TestAskFromLogOneVerdict: the log says the operator is failing on w/c1;
// the answer says that, not "nothing has reconciled this object" beside it
// (issue 41's newcomer, item 2) — with --controller-log naming the log's
// controller too. Counted by reading the log: 13 failures from 10:09:31 to
// 10:09:52, then a fresh ramp from 10:10:03 (eight in its first second,
// then 1 s, 3 s, 5 s, 10 s, 21 s, 41 s apart: the count was reset by a
// success the log does not show) and a last one at 10:11:46: 16 failures
// in the streak the queue counts.
func TestAskFromLogOneVerdict(t *testing.T) {
	logEnd := time.Date(2026, 12, 6, 10, 12, 30, 0, time.UTC) // just after the log's last line
	for _, name := range []string{"", "configmap"} {
		a := &Asker{Finder: &Finder{Core: fake.NewClientset()}, FromLog: configMapOperatorLog(t, name), Now: func() time.Time { return logEnd }}
		ans := a.Ask(context.Background(), configMapC1(), "configmaps")
		all := ans.Summary + "\n" + strings.Join(ans.Next, "\n") + "\n" + ans.Controller.How
		if !strings.HasPrefix(ans.Summary, `InProgress: controller "configmap" is failing on it: 16 failures logged since 10:10:03`) {
			t.Errorf("--controller-log %q: summary %q; want InProgress, the controller failing on it (16 failures since the fresh ramp)", name, ans.Summary)
		}
		for _, bad := range []string{"nothing has reconciled", "no controller has written", "no controller was found"} {
			if strings.Contains(all, bad) {
				t.Errorf("--controller-log %q: the answer says %q against its own evidence:\n%s", name, bad, all)
			}
		}
		if !strings.Contains(all, `Fix what the error names: data.ok must be "yes"`) {
			t.Errorf("--controller-log %q: the error is not named:\n%s", name, all)
		}
	}
}

// TestAskFromLogWrongController: --controller-log naming a controller the
// log does not have is said, with the ones it has, never dropped in silence.
func TestAskFromLogWrongController(t *testing.T) {
	a := &Asker{Finder: &Finder{Core: fake.NewClientset()}, FromLog: configMapOperatorLog(t, "configmaps"), Now: func() time.Time { return now }}
	ans := a.Ask(context.Background(), configMapC1(), "configmaps")
	next := strings.Join(ans.Next, "\n")
	if want := "The controller named for the log, configmaps, is neither a controller of ctl.log (it has controllers configmap)"; !strings.Contains(next, want) {
		t.Errorf("next steps:\n%s\nlack %q", next, want)
	}
}
