package ui

import (
	"strings"
	"testing"
)

// Opening a dialog clears the outcome line of the one before ("cancelled:
// nothing was changed"): under the new dialog it read as this one's answer.
// What is not a dialog's outcome (the pause's hint) stays.
func TestDialogClearsThePreviousOutcome(t *testing.T) {
	m := send(t, loaded(t, 120, 30), press("down"), press("r"), press("n"))
	if m.dialog() != nil || !strings.Contains(screen(m), "cancelled: nothing was changed") {
		t.Fatalf("n did not cancel the dialog and say so:\n%s", screen(m))
	}
	m = send(t, m, press("r"))
	if m.dialog() == nil {
		t.Fatal("r did not open the dialog again")
	}
	if s := screen(m); strings.Contains(s, "cancelled") {
		t.Errorf("the previous dialog's outcome lingers under the new one:\n%s", s)
	}

	m = send(t, m, press("n"), press("p"), press("r"))
	if m.dialog() == nil {
		t.Fatal("r did not open the dialog while paused")
	}
	if s := screen(m); !strings.Contains(s, "paused: p resumes") {
		t.Errorf("the dialog cleared the pause's hint:\n%s", s)
	}
}
