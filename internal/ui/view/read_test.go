package view

import (
	"sync/atomic"
	"testing"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
)

// A session attached after the UI exited is closed at once.
func TestSessionsCloseLateAdoptions(t *testing.T) {
	var closes atomic.Int32
	newSession := func() *inspector.Session { return inspector.NewSession(nil, func() { closes.Add(1) }) }
	var o Sessions
	if !o.Adopt(newSession()) {
		t.Fatal("adopt before exit refused")
	}
	o.CloseAll()
	if e, a := int32(1), closes.Load(); e != a {
		t.Errorf("closeAll: want %d closed, got %d", e, a)
	}
	if o.Adopt(newSession()) {
		t.Error("adopt after exit accepted")
	}
	if e, a := int32(2), closes.Load(); e != a {
		t.Errorf("late adopt: want %d closed, got %d", e, a)
	}
}
