package logs

import (
	"os"
	"strconv"
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

// TestHandledIDsAsAMap: the noted IDs are looked up as the map they were
// put in at once would have them: the last line of an ID noted twice, IDs
// noted after a lookup, and none of those noted before the map was
// started anew past 4×DefaultMaxKeys.
func TestHandledIDsAsAMap(t *testing.T) {
	var h handledIDs
	want := func(id string, line int, ok bool) {
		t.Helper()
		if l, o := h.lookup(id); l != line || o != ok {
			t.Errorf("lookup(%q) = %d, %v; want %d, %v", id, l, o, line, ok)
		}
	}
	want("a", 0, false)
	h.note("a", 1)
	h.note("b", 2)
	h.note("a", 3)
	want("a", 3, true)
	want("b", 2, true)
	h.note("c", 4)
	want("c", 4, true)
	// The map holds 3; 4×DefaultMaxKeys-2 more make it just full, and the
	// one after that starts it anew.
	for i := range 4*DefaultMaxKeys - 2 {
		h.note(strconv.Itoa(i), 10+i)
	}
	want("b", 2, true)
	h.note("d", 5)
	h.note("e", 6)
	want("b", 0, false)
	want("d", 5, true)
	want("e", 6, true)

	// Noted past the list's bound with no lookup between.
	h = handledIDs{}
	h.note("x", 1)
	for i := range 4*DefaultMaxKeys + 5 {
		h.note(strconv.Itoa(i), 10+i)
	}
	want("x", 0, false)
	want(strconv.Itoa(4*DefaultMaxKeys+4), 4*DefaultMaxKeys+14, true)
}
