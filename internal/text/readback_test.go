package text

import "testing"

// TestReadBack: Printable's output reads back to what it escaped, for a
// hostile name and each control; text with no escape reads back to nothing.
func TestReadBack(t *testing.T) {
	ins := []string{"default/a\x1b[2Jb", `with "quotes" and \x1b`, hostile}
	for _, r := range everyControl() {
		ins = append(ins, "ns/a"+string(r)+"b")
	}
	for _, in := range ins {
		shown := Printable(in)
		if shown == in {
			continue // nothing escaped: nothing to read back
		}
		if got, ok := ReadBack(shown); !ok || got != in {
			t.Errorf("ReadBack(%q) = %q, %v; want %q", shown, got, ok, in)
		}
	}
	for _, s := range []string{"default/plain", `a"b`, `bad \q escape`} {
		if got, ok := ReadBack(s); ok {
			t.Errorf("ReadBack(%q) = %q, true; want false", s, got)
		}
	}
}
