package ui

import (
	"regexp"
	"strings"
	"testing"
)

// The ? view explains the view it was opened over, and only what works
// there: its title names the view; the detail view's home and end scroll
// (there is one key); the group view has no state toggles, no sort, no
// filter, no controller switch and no table header to explain.
func TestHelpIsThatOfItsView(t *testing.T) {
	top := loaded(t, 120, 200)
	for _, c := range []struct {
		name     string
		m        Model
		title    string
		want     []string // patterns
		wantNone []string // patterns
	}{
		{"top", top, "kubectl backoff top — keys",
			[]string{`home +first key`, `1-6 +toggle state`, `1 backoff`, `Sorts \(s cycles\)`, `/ +filter`}, nil},
		{"detail", detailOf(t, top), "kubectl backoff top — a key's detail",
			[]string{`home +top`, `end/G +bottom`},
			[]string{`first key`, `last key`, `1-6`, `1 backoff`, `s cycles`, `tab +switch`, `/ +filter`, `worst of N`}},
		{"groups", send(t, top, press("g"), fixedGroups()), "kubectl backoff top — error groups",
			[]string{`home +first group`, `enter +show its keys`, `backoff +errored`},
			[]string{`first key`, `1-6`, `1 backoff`, `s cycles`, `tab +switch`, `/ +filter`, `worst of N`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := screen(send(t, c.m, press("?")))
			if first := splitLines(s)[0]; strings.TrimRight(first, " ") != c.title {
				t.Errorf("title %q, want %q", first, c.title)
			}
			for _, p := range c.want {
				if !regexp.MustCompile(p).MatchString(s) {
					t.Errorf("help does not show %q:\n%s", p, s)
				}
			}
			for _, p := range c.wantNone {
				if regexp.MustCompile(p).MatchString(s) {
					t.Errorf("help shows %q, which does not work there:\n%s", p, s)
				}
			}
		})
	}
}
