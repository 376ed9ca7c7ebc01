package logs

import (
	"fmt"
	"testing"
)

// TestInternerIsJSONString: an interned value is the value read anew,
// whatever was read before it — the same bytes in another field, an
// escaped quote, a value met again after the map was emptied — and the
// interner holds no more than its bound.
func TestInternerIsJSONString(t *testing.T) {
	in := newInterner()
	raws := []string{`"default"`, `"dial tcp: refused (\"widget-api\")"`, `"a\u00e9b"`, `""`, `"x\\"`}
	for i := range 100_000 {
		raws = append(raws, fmt.Sprintf(`"default/w%d"`, i))
	}
	for round := range 2 {
		for _, raw := range raws {
			for _, key := range []string{"name", "error", "reconcileID", "other"} {
				if got, want := in.jsonString(fieldKeyOf([]byte(key)), []byte(raw)), jsonString([]byte(raw)); got != want {
					t.Fatalf("round %d, %s %s: %q, want %q", round, key, raw, got, want)
				}
			}
			if in.size > maxInternSize {
				t.Fatalf("holds %d bytes, past its bound %d", in.size, maxInternSize)
			}
		}
	}
	ref := []byte(`{"name":"w1","namespace":"default"}`)
	for range 2 {
		if got := in.of(ref, objectRef); got != "default/w1" {
			t.Errorf("object reference %q, want default/w1", got)
		}
	}
}
