package ui

import (
	"strings"
	"testing"
)

// Enter on a filter that is not valid (`~[abc`, an unclosed class) applies
// nothing: typing goes on, the line says why, and the query the table asks
// for is not "~" (what was applied on the way, which matches every key).
func TestFilterEnterOnInvalidKeepsTyping(t *testing.T) {
	m := send(t, loaded(t, 120, 30), press("/"))
	m = send(t, m, typeText("~[abc")...)
	m = send(t, m, press("enter"))
	if m.topMode() != modeFilter || !m.tbl().Filter.Typing() {
		t.Fatalf("enter on %q ended the typing: stack %v, state %v", "~[abc", m.modes(), m.tbl().Filter.State)
	}
	if s := screen(m); !strings.Contains(s, "enter applies nothing") || !strings.Contains(s, "/~[abc") {
		t.Errorf("the filter line does not say why enter applied nothing:\n%s", s)
	}
	// Fixed, it is applied as any filter.
	m = send(t, m, typeText("]")...)
	m = send(t, m, press("enter"))
	if m.topMode() != modeTop || m.tbl().Filter.Applied != "~[abc]" {
		t.Errorf("after fixing and enter: stack %v, applied %q", m.modes(), m.tbl().Filter.Applied)
	}
	// esc from an invalid filter goes back to the filter before the typing.
	m = send(t, m, press("/"))
	m = send(t, m, typeText("(")...)
	m = send(t, m, press("enter"), press("esc"))
	if m.topMode() != modeTop || m.tbl().Filter.Applied != "~[abc]" {
		t.Errorf("after ( enter esc: stack %v, applied %q; want the filter before, ~[abc]", m.modes(), m.tbl().Filter.Applied)
	}
}
