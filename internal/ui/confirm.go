package ui

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
)

// bulkSpread spreads a bulk retry, so a herd is not released at once.
const bulkSpread = 30 * time.Second

// action is a forget or a retry, of one key or of a filtered set.
type action struct {
	requeue bool

	// One key: its failure count and delay source as last read (the dialog
	// follows them while open, see Model.followKey).
	controller, key string
	failures        int
	delaySource     string
	state           api.State
	// permanent says the key's last error is of the permanent class (and
	// not history): a retry runs the reconcile that failed so again.
	permanent bool

	// buckets are the controllers acted on (actedOn) whose limiter has a
	// token bucket (the classic queue's max(exponential, bucket)): a
	// forget resets the per-item count, not the bucket.
	buckets []string
	// nextWait is what a next failure after the forget waits, as
	// explain.NextFailureWait forecasts it for the one controller acted
	// on ("at least 5ms", "about 10s: the token bucket decides, …"); empty
	// for several controllers or a limiter that does not say.
	nextWait string

	// A set: the keys of these controllers that pass filter.
	controllers []string
	filter      *api.Filter
	// hit are the controllers the dry run found keys of the set in, and
	// those it could not ask (they may hold some); counted says it has
	// answered. A filter over every controller may select one's keys
	// only, and what the dialog says of a next failure is about theirs.
	hit     []string
	counted bool
	// what names the set in words, for the confirmation.
	what string

	// reason is why, as typed in the confirmation (optional); user is who
	// the requests say is asking (Options.User).
	reason, user string
}

func (a action) bulk() bool { return a.filter != nil }

// oneKey is the forget (or retry) of k.
func oneKey(requeue bool, k *api.Key) action {
	a := action{requeue: requeue, controller: k.Controller, key: k.Key}
	a.follow(k)
	return a
}

// follow takes the numbers of k as last read: its failures, where its
// delay came from, its state, and whether its last error is permanent, by
// the class the detail's diagnosis judges it by (explain's errorFinding),
// unless a reconcile succeeded since (explain.ErrorResolved).
func (a *action) follow(k *api.Key) {
	a.failures, a.delaySource, a.state = k.Failures, k.DelaySource, k.State
	a.permanent = k.LastError != nil && k.LastError.Class == api.ClassPermanent && !explain.ErrorResolved(k)
}

// actedOn are the controllers whose keys the action resets: the key's; a
// set's where its dry run found keys; before it answers, every one asked.
func (a action) actedOn() []string {
	switch {
	case !a.bulk():
		return []string{a.controller}
	case a.counted:
		return a.hit
	}
	return a.controllers
}

// bucket says a controller acted on has a token bucket.
func (a action) bucket() bool { return len(a.buckets) > 0 }

func (a action) verb() string {
	if a.requeue {
		return "retry"
	}
	return "forget"
}

// requests are the v1/forget bodies: one per controller.
func (a action) requests() []api.ForgetRequest {
	if !a.bulk() {
		return []api.ForgetRequest{{Controller: a.controller, Keys: []string{a.key}, Requeue: a.requeue, Reason: a.reason, User: a.user}}
	}
	out := make([]api.ForgetRequest, 0, len(a.controllers))
	for _, c := range a.controllers {
		r := api.ForgetRequest{Controller: c, Filter: a.filter, Requeue: a.requeue, Reason: a.reason, User: a.user}
		if a.requeue {
			r.Spread = metav1.Duration{Duration: bulkSpread}
		}
		out = append(out, r)
	}
	return out
}

// confirmation is the y/N dialog before an action, with an optional
// reason typed after w. A bulk action first counts its keys with a dry run.
type confirmation struct {
	id    int
	act   action
	count int // -1 until the dry run answers
	err   error
	// reason is the reason prompt; typing says keys go to it.
	reason textinput.Model
	typing bool
	keys   confirmKeys
}

// confirmKeys are the dialog's own keys: it handles them itself, and its
// key line is drawn from them (help.KeyMap). While the reason is typed,
// enter and esc end it and every other key edits it: the arrows, home and
// end move in it (they used to end it, as they end the top view's filter).
type confirmKeys struct {
	Yes, No, Reason        key.Binding
	ReasonDone, ReasonDrop key.Binding
}

func newConfirmKeys() confirmKeys {
	return confirmKeys{
		Yes:        key.NewBinding(key.WithKeys("y", "Y"), key.WithHelp("y", "yes")),
		No:         key.NewBinding(key.WithKeys("n", "N", "esc", "enter", "q"), key.WithHelp("N", "no (default)")),
		Reason:     key.NewBinding(key.WithKeys("w"), key.WithHelp("w", "reason (optional)")),
		ReasonDone: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "done")),
		ReasonDrop: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "no reason")),
	}
}

// ShortHelp is the dialog's key line: the answers, or, while the reason is
// typed, how to end it. help.KeyMap.
func (k confirmKeys) ShortHelp() []key.Binding {
	if k.ReasonDone.Enabled() {
		return []key.Binding{k.ReasonDone, k.ReasonDrop}
	}
	return []key.Binding{k.Yes, k.No, k.Reason}
}

// keyMap is the dialog's keys as they stand (answering, or typing).
func (c *confirmation) keyMap() confirmKeys { return c.keys }

// FullHelp is ShortHelp in one column. help.KeyMap.
func (k confirmKeys) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

// setTyping switches the bindings between answering and typing a reason.
func (k *confirmKeys) setTyping(typing bool) {
	for _, b := range []*key.Binding{&k.Yes, &k.No, &k.Reason} {
		b.SetEnabled(!typing)
	}
	k.ReasonDone.SetEnabled(typing)
	k.ReasonDrop.SetEnabled(typing)
}

func newConfirmation(id int, act action) *confirmation {
	ti := textinput.New()
	ti.Prompt = "Reason: "
	// No placeholder: the input draws its cursor over a placeholder's first
	// letter, which then reads as typed ("Reason: w|hy…"). The hint is a
	// line of its own (reasonHint).
	ti.CharLimit = api.MaxReasonBytes
	c := &confirmation{id: id, act: act, reason: ti, keys: newConfirmKeys()}
	c.keys.setTyping(false)
	if act.bulk() {
		c.count = -1 // counted by a dry run (counted)
	}
	return c
}

// update handles a key with the dialog's own keys: while typing, the
// reason's editing keys (enter ends the typing, esc drops what was typed;
// every other key, the arrows, home and end included, goes to the input);
// otherwise w starts it. answered says the dialog was answered: answer is
// the action confirmed, with its reason, or nil for no.
func (c *confirmation) update(msg tea.KeyPressMsg) (_ tea.Cmd, answer *action, answered bool) {
	k := &c.keys
	switch {
	case key.Matches(msg, k.ReasonDrop):
		c.reason.SetValue("")
		fallthrough
	case key.Matches(msg, k.ReasonDone):
		c.typing = false
		k.setTyping(false)
		c.reason.Blur()
		return nil, nil, false
	case c.typing:
		var cmd tea.Cmd
		c.reason, cmd = c.reason.Update(msg)
		return cmd, nil, false
	case key.Matches(msg, k.Reason):
		c.typing = true
		k.setTyping(true)
		return c.reason.Focus(), nil, false
	case key.Matches(msg, k.Yes):
		act := c.act
		act.reason = strings.TrimSpace(c.reason.Value())
		return nil, &act, true
	case key.Matches(msg, k.No):
		return nil, nil, true
	}
	return nil, nil, false
}

// counted takes the dry run's count of a bulk action in (dialog id), and
// where it found the keys (hit), when it is this dialog's; it reports
// whether it was.
func (c *confirmation) counted(id, count int, hit []string, err error) bool {
	if c.id != id {
		return false
	}
	c.count, c.err = count, err
	c.act.hit, c.act.counted = hit, true
	return true
}

// updateInput passes a message that is not a key (the cursor's blink) to
// the reason while it is typed.
func (c *confirmation) updateInput(msg tea.Msg) tea.Cmd {
	if !c.typing {
		return nil
	}
	var cmd tea.Cmd
	c.reason, cmd = c.reason.Update(msg)
	return cmd
}

// prompt says what will happen, in words.
func (c *confirmation) prompt() []string {
	a := c.act
	if !a.bulk() {
		who := fmt.Sprintf("%s %s (%s)", explain.Printable(a.controller), explain.Printable(a.key), explain.Plural(a.failures, "failure"))
		if a.requeue {
			out := []string{"Retry " + who + " now?"}
			if a.permanent {
				// The detail under the dialog says it; the dialog must not
				// read as if a retry could help.
				out = append(out, "Its last error is permanent: a retry will fail the same way unless the object changed.")
			}
			return append(out, "Its failure count goes back to 0 and it is requeued at once: reconciled as soon as a worker is free.")
		}
		return []string{"Forget the backoff of " + who + "?", a.forgetEffect(), a.pendingEffect()}
	}
	n := "counting… keys"
	switch {
	case c.err != nil:
		n = "? keys (dry run failed: " + oneLine(c.err.Error()) + ")"
	case c.count >= 0:
		n = explain.Plural(c.count, "key")
	}
	if a.requeue {
		// One line each, wrapped at the dialog's width: two halves of a
		// sentence wrapped apart broke it twice at 60 columns.
		return []string{
			fmt.Sprintf("Retry %s %s now?", n, a.what),
			fmt.Sprintf("Their failure counts go back to 0 and they are requeued spread evenly over %s, so what they call is not hit by a herd.", short(bulkSpread)),
		}
	}
	next := "a next failure waits only the base delay."
	switch {
	case a.bucket() && len(a.buckets) < len(a.actedOn()):
		// Keys of controllers with and without a bucket: each its own.
		bs := "whose token bucket still applies"
		if len(a.buckets) > 1 {
			bs = "whose token buckets still apply"
		}
		next = "a next failure waits only the base delay, except in " + strings.Join(a.buckets, ", ") + ", " + bs + "."
	case a.bucket() && a.nextWait != "":
		next = "a next failure waits " + a.nextWait + "."
	case a.bucket():
		next = "the token bucket still applies to a next failure."
	}
	return []string{fmt.Sprintf("Forget the backoff of %s %s?", n, a.what),
		"Their per-item failure counts go back to 0 and pending retries keep their times; " + next}
}

// forgetEffect says what a forget of one key changes for its next failure.
// The per-item count restarts at 0; a token bucket is not reset, so when
// the bucket chose the delay a forget does not shorten the next one.
func (a action) forgetEffect() string {
	switch {
	case a.delaySource == api.SourceBucket && a.nextWait != "":
		return "Its per-item failure count goes back to 0, but its delay came from the token bucket, which a forget does not reset; its next failure waits " + a.nextWait + "."
	case a.delaySource == api.SourceBucket:
		return "Its per-item failure count goes back to 0, but its delay came from the controller's token bucket, which still applies to its next failure."
	case a.bucket() && a.nextWait != "":
		return "Its per-item failure count goes back to 0; its next failure waits " + a.nextWait + "."
	case a.bucket():
		return "Its per-item failure count goes back to 0, so its next failure waits at least the base delay again (the token bucket still applies)."
	}
	return "Its failure count goes back to 0, so its next failure waits the base delay again."
}

// view renders the dialog box.
func (c *confirmation) view(st *styles, width int) string {
	lines := c.prompt()
	if c.typing || c.reason.Value() != "" {
		lines = append(lines, "", c.reason.View())
	}
	if c.typing && c.reason.Value() == "" {
		lines = append(lines, st.dim.Render(reasonHint))
	}
	// The key line, from the dialog's own bindings.
	var keys []string
	for _, b := range c.keys.ShortHelp() {
		keys = append(keys, st.bold.Render(b.Help().Key)+" "+b.Help().Desc)
	}
	lines = append(lines, "", strings.Join(keys, "   "))
	inner := max(20, min(width-4, 76))
	for i := range lines {
		lines[i] = wrapFit(lines[i], inner)
	}
	return st.dialog.Width(inner + 4).Render(strings.Join(lines, "\n"))
}

// reasonHint says what the reason is for, under its empty input.
const reasonHint = "why: recorded with the reset, shown on the object"

// wrapFit wraps s to w cells.
func wrapFit(s string, w int) string { return strings.Join(wrap(s, w), "\n") }

// overlay draws box centred over the screen's lines.
func overlay(screen, box string, width, height int) string {
	lines := strings.Split(screen, "\n")
	blines := strings.Split(box, "\n")
	top := max(0, (height-len(blines))/2)
	left := max(0, (width-lipgloss.Width(box))/2)
	for i, bl := range blines {
		if top+i >= len(lines) {
			break
		}
		lines[top+i] = fit(strings.Repeat(" ", left)+bl, width)
	}
	return strings.Join(lines, "\n")
}

// pendingEffect says what a forget leaves of the key's wait, as its state
// has it: a failed key has no retry pending to keep.
func (a action) pendingEffect() string {
	switch a.state {
	case api.StateScheduled:
		return "Its pending re-check (RequeueAfter) keeps its time (r retries now)."
	case api.StateFailed:
		return "Nothing is pending: it runs again when its object changes (r retries now)."
	case api.StateBackoff:
		return "A pending retry keeps its time (r retries now)."
	}
	return "r retries it now instead."
}
