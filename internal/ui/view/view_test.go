package view

import "testing"

// A slot reads the view from its field in the root and stores it back
// there: what the root's one registration line per view relies on.
func TestSlotOf(t *testing.T) {
	type root struct{ help Help }
	c := &Common{Width: 80, Height: 24}
	s := SlotOf(func(r *root) *Help { return &r.help })
	var r root
	if got := s.Get(&r).(Help); got.C != nil {
		t.Fatalf("Get before Set = %+v, want the zero view", got)
	}
	s.Set(&r, NewHelp(c))
	if r.help.C != c {
		t.Errorf("Set did not store the view in its field: %+v", r.help)
	}
	if got := s.Get(&r).(Help); got.C != c {
		t.Errorf("Get after Set = %+v, want the view stored", got)
	}
}
