package widget

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// BulkSpread spreads a bulk retry, so a herd is not released at once.
const BulkSpread = 30 * time.Second

// Action is a forget or a retry, of one key or of a filtered set.
type Action struct {
	// Requeue is a retry: the forget, then the key requeued at once.
	Requeue bool

	// One key: its failure count and delay source as last read (the dialog
	// follows them while open: the root's Model.followKey).
	Controller, Key string
	Failures        int
	DelaySource     string
	State           api.State
	// Permanent says the key's last error is of the permanent class (and
	// not history): a retry runs the reconcile that failed so again.
	Permanent bool

	// Buckets are the controllers acted on (ActedOn) whose limiter has a
	// token bucket (the classic queue's max(exponential, bucket)): a
	// forget resets the per-item count, not the bucket.
	Buckets []string
	// NextWait is what a next failure after the forget waits, as
	// explain.NextFailureWait forecasts it for the one controller acted
	// on ("at least 5ms", "about 10s: the token bucket decides, …"); empty
	// for several controllers or a limiter that does not say.
	NextWait string

	// A set: the keys of these controllers that pass filter.
	Controllers []string
	Filter      *api.Filter
	// Hit are the controllers the dry run found keys of the set in, and
	// those it could not ask (they may hold some); Counted says it has
	// answered. A filter over every controller may select one's keys
	// only, and what the dialog says of a next failure is about theirs.
	Hit     []string
	Counted bool
	// Permanents is how many keys of the set the dry run found failing on
	// a permanent error (ForgetResponse.Permanent): the dialog says that
	// acting on them will not help them.
	Permanents int
	// What names the set in words, for the confirmation.
	What string

	// Reason is why, as typed in the confirmation (optional); User is who
	// the requests say is asking (Options.User).
	Reason, User string
}

// Bulk reports whether the action is on a filtered set, not one key.
func (a Action) Bulk() bool { return a.Filter != nil }

// OneKey is the forget (or retry) of k.
func OneKey(requeue bool, k *api.Key) Action {
	a := Action{Requeue: requeue, Controller: k.Controller, Key: k.Key}
	a.Follow(k)
	return a
}

// Follow takes the numbers of k as last read: its failures, where its
// delay came from, its state, and whether its last error is permanent, by
// the class the detail's diagnosis judges it by (explain's errorFinding),
// unless a reconcile succeeded since (explain.ErrorResolved).
func (a *Action) Follow(k *api.Key) {
	a.Failures, a.DelaySource, a.State = k.Failures, k.DelaySource, k.State
	a.Permanent = k.LastError != nil && k.LastError.Class == api.ClassPermanent && !explain.ErrorResolved(k)
}

// ActedOn are the controllers whose keys the action resets: the key's; a
// set's where its dry run found keys; before it answers, every one asked.
func (a Action) ActedOn() []string {
	switch {
	case !a.Bulk():
		return []string{a.Controller}
	case a.Counted:
		return a.Hit
	}
	return a.Controllers
}

// bucket says a controller acted on has a token bucket.
func (a Action) bucket() bool { return len(a.Buckets) > 0 }

// Verb names the action: "retry" or "forget".
func (a Action) Verb() string {
	if a.Requeue {
		return "retry"
	}
	return "forget"
}

// Requests are the v1/forget bodies: one per controller.
func (a Action) Requests() []api.ForgetRequest {
	if !a.Bulk() {
		return []api.ForgetRequest{{Controller: a.Controller, Keys: []string{a.Key}, Requeue: a.Requeue, Reason: a.Reason, User: a.User}}
	}
	out := make([]api.ForgetRequest, 0, len(a.Controllers))
	for _, c := range a.Controllers {
		r := api.ForgetRequest{Controller: c, Filter: a.Filter, Requeue: a.Requeue, Reason: a.Reason, User: a.User}
		if a.Requeue {
			r.Spread = metav1.Duration{Duration: BulkSpread}
		}
		out = append(out, r)
	}
	return out
}

// Confirmation is the y/N dialog before an action, with an optional
// reason typed after w. A bulk action first counts its keys with a dry run.
type Confirmation struct {
	ID    int
	Act   Action
	Count int // -1 until the dry run answers
	err   error
	// Reason is the reason prompt; typing says keys go to it.
	Reason textinput.Model
	Typing bool
	keys   ConfirmKeys
}

// ConfirmKeys are the dialog's own keys: it handles them itself, and its
// key line is drawn from them (help.KeyMap). While the reason is typed,
// enter and esc end it and every other key edits it: the arrows, home and
// end move in it (they used to end it, as they end the top view's filter).
type ConfirmKeys struct {
	Yes, No, Reason        key.Binding
	ReasonDone, ReasonDrop key.Binding
}

func newConfirmKeys() ConfirmKeys {
	return ConfirmKeys{
		Yes:        key.NewBinding(key.WithKeys("y", "Y"), key.WithHelp("y", "yes")),
		No:         key.NewBinding(key.WithKeys("n", "N", "esc", "enter", "q"), key.WithHelp("N", "no (default)")),
		Reason:     key.NewBinding(key.WithKeys("w"), key.WithHelp("w", "reason (optional)")),
		ReasonDone: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "done")),
		ReasonDrop: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "no reason")),
	}
}

// ShortHelp is the dialog's key line: the answers, or, while the reason is
// typed, how to end it. help.KeyMap.
func (k ConfirmKeys) ShortHelp() []key.Binding {
	if k.ReasonDone.Enabled() {
		return []key.Binding{k.ReasonDone, k.ReasonDrop}
	}
	return []key.Binding{k.Yes, k.No, k.Reason}
}

// KeyMap is the dialog's keys as they stand (answering, or typing).
func (c *Confirmation) KeyMap() ConfirmKeys { return c.keys }

// FullHelp is ShortHelp in one column. help.KeyMap.
func (k ConfirmKeys) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

// setTyping switches the bindings between answering and typing a reason.
func (k *ConfirmKeys) setTyping(typing bool) {
	for _, b := range []*key.Binding{&k.Yes, &k.No, &k.Reason} {
		b.SetEnabled(!typing)
	}
	k.ReasonDone.SetEnabled(typing)
	k.ReasonDrop.SetEnabled(typing)
}

// NewConfirmation is the dialog, numbered id, asking to confirm act; a
// bulk action waits for its dry run's count (Counted).
func NewConfirmation(id int, act Action) *Confirmation {
	ti := textinput.New()
	ti.Prompt = "Reason: "
	// No placeholder: the input draws its cursor over a placeholder's first
	// letter, which then reads as typed ("Reason: w|hy…"). The hint is a
	// line of its own (reasonHint).
	ti.CharLimit = api.MaxReasonBytes
	c := &Confirmation{ID: id, Act: act, Reason: ti, keys: newConfirmKeys()}
	c.keys.setTyping(false)
	if act.Bulk() {
		c.Count = -1 // counted by a dry run (counted)
	}
	return c
}

// Update handles a key with the dialog's own keys: while typing, the
// reason's editing keys (enter ends the typing, esc drops what was typed;
// every other key, the arrows, home and end included, goes to the input);
// otherwise w starts it. answered says the dialog was answered: answer is
// the action confirmed, with its reason, or nil for no.
func (c *Confirmation) Update(msg tea.KeyPressMsg) (_ tea.Cmd, answer *Action, answered bool) {
	k := &c.keys
	switch {
	case key.Matches(msg, k.ReasonDrop):
		c.Reason.SetValue("")
		fallthrough
	case key.Matches(msg, k.ReasonDone):
		c.Typing = false
		k.setTyping(false)
		c.Reason.Blur()
		return nil, nil, false
	case c.Typing:
		var cmd tea.Cmd
		c.Reason, cmd = c.Reason.Update(msg)
		return cmd, nil, false
	case key.Matches(msg, k.Reason):
		c.Typing = true
		k.setTyping(true)
		return c.Reason.Focus(), nil, false
	case key.Matches(msg, k.Yes):
		act := c.Act
		act.Reason = strings.TrimSpace(c.Reason.Value())
		return nil, &act, true
	case key.Matches(msg, k.No):
		return nil, nil, true
	}
	return nil, nil, false
}

// Counted takes the dry run's count of a bulk action in (dialog id), how
// many of them fail on a permanent error, and where it found the keys
// (hit), when it is this dialog's; it reports whether it was.
func (c *Confirmation) Counted(id, count, permanents int, hit []string, err error) bool {
	if c.ID != id {
		return false
	}
	c.Count, c.err = count, err
	c.Act.Hit, c.Act.Counted, c.Act.Permanents = hit, true, permanents
	return true
}

// UpdateInput passes a message that is not a key (the cursor's blink) to
// the reason while it is typed.
func (c *Confirmation) UpdateInput(msg tea.Msg) tea.Cmd {
	if !c.Typing {
		return nil
	}
	var cmd tea.Cmd
	c.Reason, cmd = c.Reason.Update(msg)
	return cmd
}

// Prompt says what will happen, in words.
func (c *Confirmation) Prompt() []string {
	a := c.Act
	if !a.Bulk() {
		who := fmt.Sprintf("%s %s (%s)", text.Cell(a.Controller, 0), text.Cell(a.Key, 0), text.Plural(a.Failures, "failure"))
		if a.Requeue {
			out := []string{"Retry " + who + " now?"}
			if a.Permanent {
				// The detail under the dialog says it; the dialog must not
				// read as if a retry could help.
				out = append(out, "Its last error is permanent: a retry will fail the same way unless the object changed.")
			}
			return append(out, a.retryEffect())
		}
		out := []string{"Forget the backoff of " + who + "?"}
		if a.Permanent {
			// Forgetting shortens the wait for an attempt that fails the
			// same way: the dialog must not read as a fix.
			out = append(out, "Its last error is permanent: forgetting will not help; the next attempt fails the same way unless the object changed.")
		}
		return append(out, a.forgetEffect(), a.pendingEffect())
	}
	n := "counting… keys"
	switch {
	case c.err != nil:
		n = "? keys (dry run failed: " + text.OneLine(c.err.Error(), 0) + ")"
	case c.Count >= 0:
		n = text.Plural(c.Count, "key")
	}
	// As the one key's dialog says of its key: keys failing on a permanent
	// error fail the same way after the forget, or the retry.
	var permanent []string
	if p := explain.PermanentAmong(a.Permanents, c.Count, a.Requeue); p != "" && c.err == nil {
		permanent = []string{p}
	}
	if a.Requeue {
		// One line each, wrapped at the dialog's width: two halves of a
		// sentence wrapped apart broke it twice at 60 columns.
		out := append([]string{fmt.Sprintf("Retry %s %s now?", n, a.What)}, permanent...)
		out = append(out, fmt.Sprintf("Their failure counts go back to 0 and they are requeued spread evenly over %s, so what they call is not hit by a herd.", text.FormatDuration(BulkSpread)))
		if a.bucket() {
			// As the forget says: a retry during an outage fails again,
			// and the bucket, not reset, chooses that delay.
			out = append(out, "A retry does not reset a token bucket: "+a.bulkNext())
		}
		return out
	}
	out := append([]string{fmt.Sprintf("Forget the backoff of %s %s?", n, a.What)}, permanent...)
	return append(out, "Their per-item failure counts go back to 0 and pending retries keep their times; "+a.bulkNext())
}

// View renders the dialog box.
func (c *Confirmation) View(st *Styles, width int) string {
	lines := c.Prompt()
	if c.Typing || c.Reason.Value() != "" {
		lines = append(lines, "", c.Reason.View())
	}
	if c.Typing && c.Reason.Value() == "" {
		lines = append(lines, st.Dim.Render(ReasonHint))
	}
	// The key line, from the dialog's own bindings.
	var keys []string
	for _, b := range c.keys.ShortHelp() {
		keys = append(keys, st.Bold.Render(b.Help().Key)+" "+b.Help().Desc)
	}
	lines = append(lines, "", strings.Join(keys, "   "))
	inner := max(20, min(width-4, 76))
	for i := range lines {
		lines[i] = wrapFit(lines[i], inner)
	}
	return st.Dialog.Width(inner + 4).Render(strings.Join(lines, "\n"))
}

// ReasonHint says what the reason is for, under its empty input.
const ReasonHint = "why: recorded with the reset, shown on the object"

// wrapFit wraps s to w cells.
func wrapFit(s string, w int) string { return strings.Join(text.Wrap(s, w), "\n") }

// Overlay draws box centred over the screen's lines.
func Overlay(screen, box string, width, height int) string {
	lines := strings.Split(screen, "\n")
	blines := strings.Split(box, "\n")
	top := max(0, (height-len(blines))/2)
	left := max(0, (width-lipgloss.Width(box))/2)
	for i, bl := range blines {
		if top+i >= len(lines) {
			break
		}
		lines[top+i] = Fit(strings.Repeat(" ", left)+bl, width)
	}
	return strings.Join(lines, "\n")
}

// pendingEffect says what a forget leaves of the key's wait, as its state
// has it: a failed key has no retry pending to keep.
func (a Action) pendingEffect() string {
	switch a.State {
	case api.StateScheduled:
		return "Its pending re-check (RequeueAfter) keeps its time (r retries now)."
	case api.StateFailed:
		return "Nothing is pending: it runs again when its object changes (r retries now)."
	case api.StateBackoff:
		return "A pending retry keeps its time (r retries now)."
	}
	return "r retries it now instead."
}
