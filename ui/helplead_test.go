package ui

import (
	"strings"
	"testing"
)

// The ? view says first what the view it was opened over had no room for
// (view.HelpLead: the table's diagnosis, cut at 80 columns), and only
// over that view: help opened over a key's detail after help over the
// table does not repeat the table's diagnosis of then, which the detail
// does not show. (The root kept one help model across openings, and its
// diagnosis with it; the stack holds a help view only while it is open.)
func TestHelpLeadOnlyOverItsView(t *testing.T) {
	r, srv := demoWorld(t)
	m := firstScreen(t, r, srv, 80, 24)
	d, _, ok := m.tbl().Diagnosis()
	if !ok {
		t.Fatal("no diagnosis on the demo's first screen")
	}
	words := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	if help := words(helpText(send(t, m, press("?")))); !strings.Contains(help, words(d.Line())) {
		t.Fatalf("help over the table does not show the diagnosis whole:\n%s", help)
	}
	m = send(t, m, press("?"), press("esc"), press("enter"))
	if m.view() != modeDetail {
		t.Fatalf("enter on the table: view %v, want the detail", m.view())
	}
	if help := words(helpText(send(t, m, press("?")))); strings.Contains(help, words(d.Line())) {
		t.Errorf("help over a key's detail repeats the table's diagnosis:\n%s", help)
	}
}
