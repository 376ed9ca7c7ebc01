package query

import (
	"slices"
	"testing"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// TestGrouper pins the one grouping rule every source follows: one group
// per controller and fingerprint, exact counts, the MaxExamples (3)
// smallest keys, the message of the smallest, no class when the keys'
// classes differ, the oldest streak start and newest error, largest first.
func TestGrouper(t *testing.T) {
	at := func(s int) int64 { return time.Unix(1_700_000_000+int64(s), 0).UnixNano() }
	g := NewGrouper([]string{"beta", "alpha"})
	for _, k := range []struct {
		ctrl int
		ErrorKey
	}{
		{0, ErrorKey{Key: "a/3", Message: "dial tcp 10.0.0.3:443: connect: connection refused", Class: api.ClassTransient, First: at(5), Last: at(9)}},
		{0, ErrorKey{Key: "a/1", Message: "dial tcp 10.0.0.1:443: connect: connection refused", Class: api.ClassTransient, First: at(2), Last: at(7)}},
		{0, ErrorKey{Key: "a/2", Message: "dial tcp 10.0.0.2:443: connect: connection refused", Class: api.ClassPermanent, First: at(3), Last: at(8)}},
		{0, ErrorKey{Key: "a/0", Message: "dial tcp 10.0.0.9:443: connect: connection refused", Class: api.ClassTransient, First: at(4), Last: at(6)}},
		{0, ErrorKey{Key: "b/0", Message: `configmaps "x" not found`, Class: api.ClassPermanent, First: at(1), Last: at(1)}},
		{1, ErrorKey{Key: "c/0", Message: `configmaps "y" not found`, Class: api.ClassPermanent, First: at(1), Last: at(2)}},
	} {
		g.Add(k.ctrl, &k.ErrorKey)
	}
	got := g.Groups()
	if len(got) != 3 {
		t.Fatalf("%d groups, want 3: %+v", len(got), got)
	}
	refused := got[0]
	if refused.Controller != "beta" || refused.Fingerprint != "dial tcp …: connect: connection refused" || refused.Count != 4 ||
		!slices.Equal(refused.Examples, []string{"a/0", "a/1", "a/2"}) || refused.Message != "dial tcp 10.0.0.9:443: connect: connection refused" ||
		refused.Class != "" || !refused.FirstSeen.Equal(time.Unix(0, at(2))) || !refused.LastSeen.Equal(time.Unix(0, at(9))) {
		t.Errorf("largest group = %+v; want beta's 4 refused keys, examples a/0 a/1 a/2, a/0's message, no class (mixed), seen 2s..9s", refused)
	}
	// Equal counts: by controller name, so alpha's before beta's.
	if got[1].Controller != "alpha" || got[2].Controller != "beta" || got[1].Class != api.ClassPermanent || got[1].Fingerprint != `configmaps "…" not found` {
		t.Errorf("groups of one = %+v, %+v; want alpha's then beta's, permanent", got[1], got[2])
	}
}

// TestParseRawNamesTheParameter: a malformed query is refused naming the
// parameter it is in, where url.ParseQuery would drop the pair.
func TestParseRawNamesTheParameter(t *testing.T) {
	for raw, field := range map[string]string{"q=%zz": "q", "state=backoff;idle": "state", "limit=1&sort=a;b": "sort", "%zz=1": "%zz"} {
		_, err := ParseRaw(raw)
		if got := FieldOf(err); got != field {
			t.Errorf("ParseRaw(%q): %v, field %q; want field %q", raw, err, got, field)
		}
	}
	v, err := ParseRaw("q=a+b&state=backoff&state=idle&&")
	if err != nil || v.Get("q") != "a b" || len(v["state"]) != 2 {
		t.Errorf("ParseRaw: %v, %v; want q=\"a b\" and two states", v, err)
	}
}
