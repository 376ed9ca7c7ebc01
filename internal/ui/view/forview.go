package view

import (
	"charm.land/bubbles/v2/help"
	"context"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	objwhy "github.com/kubectl-backoff/kubectl-backoff/internal/inspector/why"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/widget"
)

// ForOptions opens the UI on `top --for TYPE`: the objects of a kind that
// are not Current, live, as `why TYPE` lists them.
type ForOptions struct {
	// Type is the kind as the user named it ("certificates", "machines.cluster.x-k8s.io").
	Type string
	// AllNamespaces adds the NAMESPACE column.
	AllNamespaces bool
	// List reads the objects and answers for those not Current, longest-
	// waiting first: the function `why TYPE` prints. Called from a tea.Cmd,
	// one call at a time.
	List func(ctx context.Context) (*objwhy.List, error)
	// Attach opens a session on a controller's pods, so that enter on an
	// answer read from an instrumented endpoint opens the key's detail;
	// nil leaves the answer as the deepest view.
	Attach ForAttachFunc
	// Ask answers for one object of a chain, read again with its own chain
	// (why.Asker.AskObject): the chain view's enter on a node. Called from
	// a tea.Cmd, one call at a time; nil leaves the chain view to show the
	// chains the list walked.
	Ask func(ctx context.Context, o objwhy.Object) (*objwhy.Answer, error)
}

// forTimeout bounds one read of the list: each object not Current may cost
// a search for its controller and a read of its key.
const forTimeout = 2 * time.Minute

// ForFetchedMsg carries one read of the `top --for` list.
type ForFetchedMsg struct {
	List      *objwhy.List
	Err       error
	FetchedAt time.Time
}

// forCmd reads the list.
func forCmd(ctx context.Context, list func(context.Context) (*objwhy.List, error), clock func() time.Time) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(ctx, forTimeout)
		defer cancel()
		l, err := list(ctx)
		return ForFetchedMsg{List: l, Err: err, FetchedAt: clock()}
	}
}

// forKeyMap is the keys of the `top --for` view: open an object's answer,
// leave it, and the keys every view has.
type forKeyMap struct {
	widget.ScrollKeys
	Open, Chain, Leave, Pause, Refresh, Help, Quit key.Binding
}

// ShortHelp is the footer's help: what the view shown takes.
func (k forKeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Open, k.Chain, k.Leave, k.Pause, k.Refresh, k.Help, k.Quit}
}

// FullHelp is every binding of the view.
func (k forKeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Up, k.Down, k.PageUp, k.PageDown, k.Home, k.End}, {k.Open, k.Chain, k.Leave}, {k.Pause, k.Refresh, k.Help, k.Quit}}
}

// For is `top --for TYPE`: the list, and one object's answer when
// enter opened it.
type For struct {
	C    *Common
	opts ForOptions
	keys forKeyMap

	list *objwhy.List
	// raw is list as read, unescaped: what a lookup in the cluster names
	// (list is escaped for the terminal; rawOf maps one to the other).
	raw       *objwhy.List
	err       error
	fetchedAt time.Time
	lastSent  time.Time
	Inflight  bool
	cursor    int
	// Open is the object whose answer is shown (its key), "" for the list.
	Open   string
	scroll int
	// sessions are the controllers attached to for a key's detail, by
	// NAMESPACE/TARGET, kept for the next time (closed at exit).
	sessions map[string]ForSession
	// asked are the objects' own answers, by answerID (forask.go); asking
	// the one under way.
	asked  map[string]forAsked
	asking string
}

// NewFor is the `top --for` view of opts.
func NewFor(c *Common, opts ForOptions) For {
	k := &c.Keys
	open := key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "why"))
	leave := key.NewBinding(key.WithKeys("esc", "left"), key.WithHelp("esc", "back to the list"), key.WithDisabled())
	chain := key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "chain"), key.WithDisabled())
	return For{C: c, opts: opts, keys: forKeyMap{ScrollKeys: rowKeys(k, "object"), Open: open, Chain: chain, Leave: leave,
		Pause: k.Pause, Refresh: k.Refresh, Help: k.Help, Quit: k.Quit}}
}

// Refresh reads the list again.
func (f *For) Refresh() tea.Cmd {
	f.Inflight, f.lastSent = true, f.C.Now()
	return f.C.Stamp(forCmd(f.C.Conn.Ctx, f.opts.List, f.C.Opts.Clock))
}

// refreshOnce reads the list again unless a read is under way: one read
// at a time, the asker is not shared.
func (f *For) refreshOnce() tea.Cmd {
	if f.Inflight {
		return nil
	}
	return f.Refresh()
}

// Received takes a read in; an error keeps the last list on screen.
func (f For) Received(msg ForFetchedMsg) For {
	f.Inflight, f.err = false, msg.Err
	if msg.List != nil {
		f.raw, f.list, f.fetchedAt = msg.List, escapedCopy(msg.List), msg.FetchedAt
	}
	f.cursor = max(0, min(f.cursor, len(f.Answers())-1))
	f.setKeys()
	return f
}

// Answers are the objects not Current, as last read.
func (f *For) Answers() []*objwhy.Answer {
	if f.list == nil {
		return nil
	}
	return f.list.Answers
}

// shown is the answer open, as of the latest read; nil once the object is
// Current (it left the list) or while the list is shown.
func (f *For) shown() *objwhy.Answer {
	for _, a := range f.Answers() {
		if f.Open != "" && answerID(a) == f.Open {
			return f.ownAnswer(a)
		}
	}
	return nil
}

func answerID(a *objwhy.Answer) string { return a.Object.Ref() + " -n " + a.Object.Namespace }

// keyMap is the view's keys as they stand: enter's help says what it
// opens from what is shown. help.KeyMap.
func (f *For) keyMap() forKeyMap { return f.keys }

// update handles a key.
func (f For) update(msg tea.KeyPressMsg) (For, tea.Cmd, Intent) {
	k := &f.keys
	switch {
	case f.Open != "" && key.Matches(msg, k.Leave):
		f.Open, f.scroll = "", 0
	case f.Open != "" && key.Matches(msg, k.Open):
		if a := f.KeyOfShown(); a != nil {
			return f, nil, OpenAnswerKeyIntent{Shown: a, Raw: f.RawOf(a)} // the root opens the key's detail (openKey)
		}
	case f.Open != "" && key.Matches(msg, k.Chain):
		if a := f.shown(); a != nil {
			ch, cmd := NewChain(f.C, a, f.RawOf(a))
			return f, nil, OpenIntent{View: ch, Cmd: cmd}
		}
	case f.Open != "":
		widget.ScrollBy(f.C.Keys.ScrollKeys(), msg, &f.scroll, max(1, f.room()-1), len(f.answerLines()))
		f.scroll = widget.ClampText(f.scroll, len(f.answerLines()), f.room())
	case key.Matches(msg, k.Open):
		if as := f.Answers(); f.cursor < len(as) {
			f.Open, f.scroll = answerID(as[f.cursor]), 0
			f.setKeys()
			return f, f.askOpen(as[f.cursor]), nil
		}
	default:
		widget.ScrollBy(k.ScrollKeys, msg, &f.cursor, max(1, f.room()-2), len(f.Answers()))
		f.cursor = max(0, min(f.cursor, len(f.Answers())-1))
	}
	f.setKeys()
	return f, nil, nil
}

// setKeys enables the keys of what is shown: enter opens an answer from
// the list, and the key's detail from an answer read from an endpoint.
func (f *For) setKeys() {
	f.keys.Open.SetEnabled(f.Open == "" || f.KeyOfShown() != nil)
	f.keys.Leave.SetEnabled(f.Open != "")
	a := f.shown()
	f.keys.Chain.SetEnabled(a != nil && (a.Chain != nil || f.opts.Ask != nil))
	if f.Open == "" {
		f.keys.Open.SetHelp("enter", "why")
	} else {
		f.keys.Open.SetHelp("enter", "key detail")
	}
}

// room is how many lines the body has under the title and status.
func (f *For) room() int { return max(1, f.C.bodyHeight()-HeadLines) }

// view renders the list, or the answer open, in height-1 lines.
func (f *For) view() string {
	s := &f.C.Styles
	w, h := f.C.Width, f.C.Height-1
	title := s.Title.Render("backoff") + s.Dim.Render(" › ") + "why " + s.Bold.Render(f.opts.Type)
	var body []string
	if a := f.shown(); a != nil {
		title += s.Dim.Render(" › ") + a.Object.Name
		body = widget.ScrolledText(f.answerLines(), f.scroll, f.room(), s)
	} else {
		body = f.rows()
	}
	lines := append([]string{title, f.statusLine(), ""}, body...)
	for i := range lines {
		lines[i] = widget.Fit(lines[i], w)
	}
	return strings.Join(widget.Pad(lines, h), "\n")
}

// statusLine says what the list holds and how fresh it is.
func (f *For) statusLine() string {
	s := &f.C.Styles
	var line string
	switch l := f.list; {
	case l == nil && f.err == nil:
		line = s.Dim.Render("reading the " + f.opts.Type + ", and asking the controllers of those not Current…")
	case l == nil:
	case f.Open != "" && f.shown() == nil:
		line = s.OK.Render("the object is Current now, or gone: esc goes back to the list")
	case l.Total == 0:
		line = "no " + f.opts.Type + " found"
	case len(l.Answers) == 0 && l.EventsSkipped != "":
		// Some Events or keys were not read (said after): a stuck object
		// may hide, so not "nothing to wait for".
		line = fmt.Sprintf("all %d %s are Current by their status", l.Total, f.opts.Type)
	case len(l.Answers) == 0:
		line = s.OK.Render(fmt.Sprintf("all %d %s are Current: nothing to wait for", l.Total, f.opts.Type))
	default:
		line = fmt.Sprintf("%d of %d not Current · longest-waiting change first", len(l.Answers), l.Total)
	}
	if l := f.list; l != nil && l.EventsSkipped != "" {
		// why.List.EventsSkipped, short: a stuck object may hide.
		skipped := "Events of the Current ones"
		if l.KeysSkipped > 0 {
			// A failing ConfigMap hides too: kstatus calls it Current.
			skipped = fmt.Sprintf("keys of %d objects with no status", l.KeysSkipped)
			if strings.Contains(l.EventsSkipped, "the Events of") {
				skipped = "Events of the Current ones and " + skipped
			}
		}
		line += s.Warn.Render(" · " + skipped + " not read (too many): narrow the list to one namespace")
	}
	if !f.fetchedAt.IsZero() {
		line += s.Dim.Render(" · updated " + text.Ago(f.fetchedAt, f.C.Now()))
	}
	if f.err != nil {
		line += s.Bad.Render(" · ✗ " + text.OneLine(f.err.Error(), 0))
	}
	if f.Open != "" && f.asking == f.Open {
		line += s.Dim.Render(" · reading what blocks it…")
	}
	if f.C.Paused {
		line += s.Warn.Render(" · ⏸ PAUSED")
	}
	return strings.TrimPrefix(line, " · ")
}

// rows is the table, scrolled to keep the cursor on screen.
func (f *For) rows() []string {
	s := &f.C.Styles
	as := f.Answers()
	if len(as) == 0 {
		return nil
	}
	cols := []string{"NAME", "STATUS", "WAITING", "CONTROLLER", "BACKOFF", "MESSAGE"}
	caps := []int{32, 11, 8, 28, 36, 0}
	if f.opts.AllNamespaces {
		cols, caps = append([]string{"NAMESPACE"}, cols...), append([]int{20}, caps...)
	}
	cells := make([][]string, len(as))
	for i, a := range as {
		waiting := "-"
		if a.Waiting.Duration > 0 {
			waiting = text.FormatSeconds(a.Waiting.Duration)
		}
		msg := text.OneLine(a.Verdict.Message, 0)
		if b, more := a.ChainBlocker(); b != nil {
			msg = "waits for " + b.Object.Ref() + ": " + b.Said() + objwhy.MoreBlockers(more) // what blocks it says more
		}
		row := []string{a.Object.Name, a.Verdict.Status, waiting, a.ControllerName(), a.BackoffBrief(), msg}
		if f.opts.AllNamespaces {
			row = append([]string{a.Object.Namespace}, row...)
		}
		cells[i] = row
	}
	widths := make([]int, len(cols))
	for j, c := range cols {
		widths[j] = len(c)
		for _, row := range cells {
			widths[j] = max(widths[j], len([]rune(row[j])))
		}
		if caps[j] > 0 {
			widths[j] = min(widths[j], caps[j])
		}
	}
	line := func(row []string) string {
		var b strings.Builder
		for j, c := range row {
			if j == len(row)-1 {
				b.WriteString(c)
				break
			}
			b.WriteString(widget.Fit(c, widths[j]) + " ")
		}
		return b.String()
	}
	out := []string{s.Header.Render(widget.Fit(widget.SelectedMark(false)+line(cols), f.C.Width))}
	room := max(1, f.room()-1)
	first := max(0, min(f.cursor-room+1, len(as)-room))
	first = min(first, f.cursor)
	for i := first; i < min(len(as), first+room); i++ {
		l := widget.Fit(widget.SelectedMark(i == f.cursor)+line(cells[i]), f.C.Width)
		if i == f.cursor {
			l = s.Selected.Render(l)
		}
		out = append(out, l)
	}
	return out
}

// The view interface (view.go), over the typed methods above.

// `top --for`: reads through its own sessions, so it refreshes with none
// attached; ctrl+r reads once more even while a read is under way.

// OnKey handles a key pressed while the view is on top (View).
func (f For) OnKey(msg tea.KeyPressMsg) (View, tea.Cmd, Intent) { return f.update(msg) }

// Render draws the view's body (View).
func (f For) Render() string { return f.view() }

// HintKeys is the view's key map: its hints, and what ? explains (View).
func (f For) HintKeys() help.KeyMap { return f.keyMap() }

// Receive takes a read of the answers in (Receiver), and opens an
// answer's key on its controller's session (forkey.go): attaching first
// when none is kept.
func (f For) Receive(msg tea.Msg) (View, tea.Cmd, Intent, bool) {
	switch m := msg.(type) {
	case ForFetchedMsg:
		return f.Received(m), nil, nil, true
	case OpenAnswerKeyIntent:
		return f.openKey(m)
	case ForAttachedMsg:
		return f.attachedKey(m)
	case ForAskedMsg:
		return f.receivedAsked(m)
	case DroppedMsg:
		if _, ok := m.Msg.(ForFetchedMsg); ok {
			f.Inflight = false
			return f, nil, nil, true
		}
	}
	return f, nil, nil, false
}

// Stale reports whether the view's next read is due (View).
func (f For) Stale() bool { return f.due() }

// Reload reads what the view shows again (View).
func (f For) Reload() (View, tea.Cmd) { cmd := f.Refresh(); return f, cmd }

// ReloadNow is ctrl+r's read (View).
func (f For) ReloadNow() (View, tea.Cmd) { cmd := f.refreshOnce(); return f, cmd }

// Resize lays the view out for the terminal's size (View).
func (f For) Resize() (View, tea.Cmd) { return f, nil }

// due reports whether the view's next read is due (Common.Due).
func (f *For) due() bool { return f.C.Due(f.Inflight, f.lastSent) }
