package ui

import (
	"strings"
	"testing"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/view"
)

// permanentWarning is the line the retry dialog adds when the key's last
// error is permanent, as the detail's diagnosis says of it.
const permanentWarning = "Its last error is permanent: a retry will fail the same way unless the object changed."

// The retry dialog of a key whose last error is permanent says so, as the
// detail under it does ("! The error is permanent: retrying will not fix
// it…"); its default answer stays no. A transient or unclassified error
// adds nothing, and the dialog follows the class as the key is read again.
func TestRetryDialogSaysThePermanentError(t *testing.T) {
	detail := func(class string) view.DetailFetchedMsg {
		d := fixedDetail()
		d.Key.LastError.Class = class
		return view.DetailFetchedMsg{Controller: "naive", Key: "demo/naive-00001", Data: d, FetchedAt: t0}
	}
	prompt := func(m Model) string {
		t.Helper()
		if m.dialog() == nil {
			t.Fatal("r opened no dialog")
		}
		return strings.Join(m.dialog().Prompt(), "\n")
	}

	t.Run("detail view", func(t *testing.T) {
		m := send(t, detailOf(t, loaded(t, 120, 30)), detail(api.ClassPermanent))
		if s := screen(m); !strings.Contains(s, "The error is permanent") {
			t.Fatalf("the detail does not say the error is permanent:\n%s", s)
		}
		m = send(t, m, press("r"))
		if p := prompt(m); !strings.Contains(p, "Retry naive demo/naive-00001 (17 failures) now?") || !strings.Contains(p, permanentWarning) {
			t.Errorf("the retry dialog does not warn of the permanent error:\n%s", p)
		}
		// The class changes under the open dialog: so does what it says.
		m = send(t, m, detail(api.ClassTransient))
		if p := prompt(m); strings.Contains(p, "permanent") {
			t.Errorf("the key's error is now transient, the dialog still says:\n%s", p)
		}
		m = send(t, m, detail(api.ClassPermanent))
		if p := prompt(m); !strings.Contains(p, permanentWarning) {
			t.Errorf("the key's error is permanent again, the dialog says:\n%s", p)
		}
		// The default answer is still no.
		m = send(t, m, press("enter"))
		if m.dialog() != nil || !strings.Contains(m.status, "cancelled") {
			t.Errorf("enter did not cancel: dialog %+v, status %q", m.dialog(), m.status)
		}
	})

	for _, tt := range []struct {
		class string
		warn  bool
	}{{api.ClassPermanent, true}, {api.ClassTransient, false}, {"", false}} {
		t.Run("top view, class "+tt.class, func(t *testing.T) {
			m := loaded(t, 120, 30)
			page := fixedPage(m.tbl().Rows())
			page.Items[3].LastError.Class = tt.class // demo/naive-00001
			m.setTop(func(t *view.Top) { t.Seq++ })
			m = send(t, m, view.RefreshedMsg{Seq: m.tbl().Seq, Overview: fixedOverview(), Page: page, FetchedAt: t0})
			m = send(t, m, press("j"), press("j"), press("j"), press("r"))
			p := prompt(m)
			if !strings.Contains(p, "demo/naive-00001") {
				t.Fatalf("dialog on another key:\n%s", p)
			}
			if got := strings.Contains(p, permanentWarning); got != tt.warn {
				t.Errorf("class %q: warns %v, want %v:\n%s", tt.class, got, tt.warn, p)
			}
		})
	}

	// A forget runs nothing now, but only shortens the wait for an attempt
	// that fails the same way: f says forgetting will not help, in its own
	// words, not the retry's; on a transient error it says nothing of it.
	for _, tt := range []struct {
		class string
		warn  bool
	}{{api.ClassPermanent, true}, {api.ClassTransient, false}} {
		t.Run("forget, class "+tt.class, func(t *testing.T) {
			m := send(t, detailOf(t, loaded(t, 120, 30)), detail(tt.class), press("f"))
			p := prompt(m)
			if strings.Contains(p, permanentWarning) {
				t.Errorf("the forget dialog warns as a retry:\n%s", p)
			}
			if got := strings.Contains(p, "forgetting will not help"); got != tt.warn {
				t.Errorf("class %q: the forget dialog warns %v, want %v:\n%s", tt.class, got, tt.warn, p)
			}
		})
	}
}
