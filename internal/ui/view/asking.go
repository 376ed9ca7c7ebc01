package view

import "github.com/kubectl-backoff/kubectl-backoff/internal/ui/widget"

// The forget dialog is state of the view that asked (AskIntent): the table,
// a key's detail or the error groups holds it while it is open, and the
// root routes keys to it and draws it over that view. Nothing else opens
// it, and leaving the view cannot leave it behind.

// Asking is the dialog a view opened over itself, embedded in the views
// that ask (Top, Detail, Groups); nil when none is open.
type Asking struct{ dialog *widget.Confirmation }

// Dialog is the dialog open over the view; nil when none is (Asker).
func (a Asking) Dialog() *widget.Confirmation { return a.dialog }

// Asker is a view that asks to confirm an action: it holds the dialog the
// root opens for its AskIntent, and drops it once answered (nil).
type Asker interface {
	View
	Dialog() *widget.Confirmation
	WithDialog(c *widget.Confirmation) View
}

// WithDialog is the table with c open over it (Asker).
func (t Top) WithDialog(c *widget.Confirmation) View { t.dialog = c; return t }

// WithDialog is the detail with c open over it (Asker).
func (d Detail) WithDialog(c *widget.Confirmation) View { d.dialog = c; return d }

// WithDialog is the error groups with c open over them (Asker).
func (g Groups) WithDialog(c *widget.Confirmation) View { g.dialog = c; return g }
