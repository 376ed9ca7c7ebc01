package logs

import (
	"math/rand/v2"
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

	// UUIDs (kept as their 16 bytes) and other IDs side by side, in one
	// map's bound; a UUID's text not as controller-runtime writes it
	// (upper case) is another ID.
	h = handledIDs{}
	const u1, u2 = "2fb4b390-68e3-4ff1-a7fd-41a6e7a3d98f", "361e1af8-6a62-4b82-8d20-a3197123eba0"
	h.note(u1, 1)
	h.note("x", 2)
	h.note("", 8)
	h.note(strings.ToUpper(u2), 3)
	want(u1, 1, true)
	want(strings.ToUpper(u1), 0, false)
	want(u2, 0, false)
	want(strings.ToUpper(u2), 3, true)
	want("x", 2, true)
	want("", 0, false) // not noted: an empty ID names no reconcile
	want("00000000-0000-0000-0000-000000000000", 0, false)
	h.note(u1, 4)
	h.note(u2, 5)
	want(u1, 4, true)
	want(u2, 5, true)
	for i := range 4*DefaultMaxKeys - 3 {
		h.note(strconv.Itoa(i), 10+i)
	}
	want(u1, 4, true)
	h.note(u2[:35]+"0", 6)
	h.note("y", 7)
	want(u1, 0, false)
	want("x", 0, false)
	want(u2[:35]+"0", 6, true)
	want("y", 7, true)
}

// TestUUIDOf: a UUID as controller-runtime writes it is its 16 bytes,
// and no other text is one.
func TestUUIDOf(t *testing.T) {
	u, ok := uuidOf("2fb4b390-68e3-4ff1-a7fd-41a6e7a3d98f")
	want := uuidID{0x2f, 0xb4, 0xb3, 0x90, 0x68, 0xe3, 0x4f, 0xf1, 0xa7, 0xfd, 0x41, 0xa6, 0xe7, 0xa3, 0xd9, 0x8f}
	if !ok || u != want {
		t.Errorf("uuidOf = %x, %v; want %x, true", u, ok, want)
	}
	for _, id := range []string{
		"", "x", "2FB4B390-68E3-4FF1-A7FD-41A6E7A3D98F", "2fb4b390-68e3-4ff1-a7fd-41a6e7a3d98", "2fb4b390-68e3-4ff1-a7fd-41a6e7a3d98f0",
		"2fb4b390x68e3-4ff1-a7fd-41a6e7a3d98f", "2fb4b39068e3-4ff1-a7fd-41a6e7a3d98f-", "2fb4b390-68e3-4ff1-a7fd-41a6e7a3d98g",
		"2fb4b390-68e3-4ff1-a7fd-41a6e7a3d9-f", "{fb4b390-68e3-4ff1-a7fd-41a6e7a3d98f",
	} {
		if _, ok := uuidOf(id); ok {
			t.Errorf("uuidOf(%q) is a UUID", id)
		}
	}
	// Against a reading digit by digit, on UUIDs with a byte changed at
	// random (a dash, a digit, an upper-case letter, any byte).
	byDigit := func(id string) (u uuidID, ok bool) {
		if len(id) != 36 {
			return u, false
		}
		j := 0
		for i := 0; i < 36; i++ {
			if i == 8 || i == 13 || i == 18 || i == 23 {
				if id[i] != '-' {
					return uuidID{}, false
				}
				continue
			}
			d := strings.IndexByte("0123456789abcdef", id[i])
			if d < 0 {
				return uuidID{}, false
			}
			u[j/2] |= byte(d) << (4 * (1 - j%2))
			j++
		}
		return u, true
	}
	rng := rand.New(rand.NewPCG(36, 36))
	for try := 0; try < 100000; try++ {
		b := []byte(uuid4(rng))
		if try%4 != 0 {
			b[rng.IntN(len(b))] = "-0aAfFgG/:`{\x00\xff"[rng.IntN(14)]
		}
		gu, gok := uuidOf(string(b))
		wu, wok := byDigit(string(b))
		if gu != wu || gok != wok {
			t.Fatalf("uuidOf(%q) = %x, %v; digit by digit %x, %v", b, gu, gok, wu, wok)
		}
	}
}
