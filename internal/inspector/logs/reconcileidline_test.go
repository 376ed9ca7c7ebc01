package logs

import (
	"os"
	"strings"
	"testing"
)

// TestReconcileIDLineNotRead: grafana-operator v5 logs "error reconciling
// datasource" at ERROR inside Reconcile, then returns RequeueAfter (a timed
// poll). The excerpt reached its issue with zap's tabs as spaces; with them
// restored the line parses as zap console, its fields read, and it must still
// make no key: it carries controller-runtime's reconcileID, and no "Reconciler
// error" of that reconcileID says the attempt failed.
func TestReconcileIDLineNotRead(t *testing.T) {
	raw, err := os.ReadFile("testdata/batch6/110-negative-grafana-operator-stern-error-reconciling-requeueafter.log")
	if err != nil {
		t.Fatal(err)
	}
	tabbed := pasteDamage("spaces-as-tabs").apply(raw)
	if !strings.Contains(string(tabbed), "Z\tERROR\tGrafanaDatasourceReconciler\terror reconciling datasource\t{") {
		t.Fatalf("tabs not restored:\n%s", tabbed)
	}
	for name, log := range map[string][]byte{"verbatim": raw, "tabbed": tabbed} {
		for _, k := range readExcerpt(t, log) {
			t.Errorf("%s: false key %s %s (%s)", name, k.Controller, k.Key, k.LogEvidence)
		}
	}
}

// TestReconcileIDLineWithHandler: the same line followed by
// controller-runtime's "Reconciler error" of its reconcileID is one failed
// attempt, counted once, with the handler's error.
func TestReconcileIDLineWithHandler(t *testing.T) {
	const fields = `{"controller": "grafanadatasource", "controllerGroup": "grafana.integreatly.org", "controllerKind": "GrafanaDatasource", ` +
		`"GrafanaDatasource": {"name":"prometheus","namespace":"monitoring"}, "namespace": "monitoring", "name": "prometheus", ` +
		`"reconcileID": "079b1ed5-27c2-4a50-afae-256226301da4"`
	log := "2024-04-04T08:44:04Z\tERROR\tGrafanaDatasourceReconciler\terror reconciling datasource\t" + fields + `, "error": "status: 400"}` + "\n" +
		"2024-04-04T08:44:04Z\tERROR\tReconciler error\t" + fields + `, "error": "datasource: status: 400"}` + "\n"
	keys := readExcerpt(t, []byte(log))
	if len(keys) != 1 {
		t.Fatalf("got %d keys, want 1: %+v", len(keys), keys)
	}
	k := keys[0]
	if k.Key != "monitoring/prometheus" || k.Failures != 1 {
		t.Errorf("got %s %s with %d failures, want monitoring/prometheus with 1", k.Controller, k.Key, k.Failures)
	}
	if k.LastError == nil || k.LastError.Message != "datasource: status: 400" {
		t.Errorf("last error %+v, want the handler's", k.LastError)
	}
}

// pasteDamage is the damage named name.
func pasteDamage(name string) damage {
	for _, d := range damages {
		if d.name == name {
			return d
		}
	}
	panic("no damage " + name)
}
