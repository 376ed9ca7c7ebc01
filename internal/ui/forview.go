package ui

import (
	"context"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
	objwhy "github.com/kubectl-backoff/kubectl-backoff/internal/inspector/why"
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

// forFetchedMsg carries one read of the `top --for` list.
type forFetchedMsg struct {
	list      *objwhy.List
	err       error
	fetchedAt time.Time
}

// forCmd reads the list.
func forCmd(ctx context.Context, list func(context.Context) (*objwhy.List, error), clock func() time.Time) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(ctx, forTimeout)
		defer cancel()
		l, err := list(ctx)
		return forFetchedMsg{list: l, err: err, fetchedAt: clock()}
	}
}

// forKeyMap is the keys of the `top --for` view: open an object's answer,
// leave it, and the keys every view has.
type forKeyMap struct {
	Up, Down, Open, Chain, Leave, Pause, Refresh, Help, Quit key.Binding
}

// ShortHelp is the footer's help: what the view shown takes.
func (k forKeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Open, k.Chain, k.Leave, k.Pause, k.Refresh, k.Help, k.Quit}
}

// FullHelp is every binding of the view.
func (k forKeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Up, k.Down, k.Open, k.Chain, k.Leave}, {k.Pause, k.Refresh, k.Help, k.Quit}}
}

// forModel is `top --for TYPE`: the list, and one object's answer when
// enter opened it.
type forModel struct {
	c    *common
	opts ForOptions
	keys forKeyMap

	list *objwhy.List
	// raw is list as read, unescaped: what a lookup in the cluster names
	// (list is escaped for the terminal; rawOf maps one to the other).
	raw       *objwhy.List
	err       error
	fetchedAt time.Time
	lastSent  time.Time
	inflight  bool
	cursor    int
	// open is the object whose answer is shown (its key), "" for the list.
	open   string
	scroll int
	// sessions are the controllers attached to for a key's detail, by
	// NAMESPACE/TARGET, kept for the next time (closed at exit).
	sessions map[string]forSession
}

func newForModel(c *common, opts ForOptions) forModel {
	k := &c.keys
	open := key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "why"))
	leave := key.NewBinding(key.WithKeys("esc", "left"), key.WithHelp("esc", "back to the list"), key.WithDisabled())
	chain := key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "chain"), key.WithDisabled())
	return forModel{c: c, opts: opts, keys: forKeyMap{Up: k.Up, Down: k.Down, Open: open, Chain: chain, Leave: leave,
		Pause: k.Pause, Refresh: k.Refresh, Help: k.Help, Quit: k.Quit}}
}

// refresh reads the list again.
func (f *forModel) refresh() tea.Cmd {
	f.inflight, f.lastSent = true, f.c.now()
	return f.c.stamp(forCmd(f.c.conn.ctx, f.opts.List, f.c.opts.Clock))
}

// refreshOnce reads the list again unless a read is under way: one read
// at a time, the asker is not shared.
func (f *forModel) refreshOnce() tea.Cmd {
	if f.inflight {
		return nil
	}
	return f.refresh()
}

// received takes a read in; an error keeps the last list on screen.
func (f forModel) received(msg forFetchedMsg) forModel {
	f.inflight, f.err = false, msg.err
	if msg.list != nil {
		f.raw, f.list, f.fetchedAt = msg.list, escapedCopy(msg.list), msg.fetchedAt
	}
	f.cursor = max(0, min(f.cursor, len(f.answers())-1))
	f.setKeys()
	return f
}

func (f *forModel) answers() []*objwhy.Answer {
	if f.list == nil {
		return nil
	}
	return f.list.Answers
}

// shown is the answer open, as of the latest read; nil once the object is
// Current (it left the list) or while the list is shown.
func (f *forModel) shown() *objwhy.Answer {
	for _, a := range f.answers() {
		if f.open != "" && answerID(a) == f.open {
			return a
		}
	}
	return nil
}

func answerID(a *objwhy.Answer) string { return a.Object.Ref() + " -n " + a.Object.Namespace }

// keyMap is the view's keys as they stand: enter's help says what it
// opens from what is shown. help.KeyMap.
func (f *forModel) keyMap() forKeyMap { return f.keys }

// update handles a key.
func (f forModel) update(msg tea.KeyPressMsg) (forModel, tea.Cmd, intent) {
	k := &f.keys
	switch {
	case f.open != "" && key.Matches(msg, k.Leave):
		f.open, f.scroll = "", 0
	case f.open != "" && key.Matches(msg, k.Open):
		if a := f.keyOfShown(); a != nil {
			return f, nil, openAnswerKeyIntent{shown: a, raw: f.rawOf(a)} // the root opens the key's detail (openKey)
		}
	case f.open != "" && key.Matches(msg, k.Chain):
		if a := f.shown(); a != nil {
			return f, nil, openChainIntent{shown: a, raw: f.rawOf(a)}
		}
	case f.open != "":
		scrollBy(f.c.keys.scroll(), msg, &f.scroll, max(1, f.room()-1), len(f.answerLines()))
		f.scroll = clampText(f.scroll, len(f.answerLines()), f.room())
	case key.Matches(msg, k.Open):
		if as := f.answers(); f.cursor < len(as) {
			f.open, f.scroll = answerID(as[f.cursor]), 0
		}
	case key.Matches(msg, k.Up):
		f.cursor = max(0, f.cursor-1)
	case key.Matches(msg, k.Down):
		f.cursor = max(0, min(f.cursor+1, len(f.answers())-1))
	}
	f.setKeys()
	return f, nil, nil
}

// setKeys enables the keys of what is shown: enter opens an answer from
// the list, and the key's detail from an answer read from an endpoint.
func (f *forModel) setKeys() {
	f.keys.Open.SetEnabled(f.open == "" || f.keyOfShown() != nil)
	f.keys.Leave.SetEnabled(f.open != "")
	a := f.shown()
	f.keys.Chain.SetEnabled(a != nil && (a.Chain != nil || f.opts.Ask != nil))
	if f.open == "" {
		f.keys.Open.SetHelp("enter", "why")
	} else {
		f.keys.Open.SetHelp("enter", "key detail")
	}
}

// room is how many lines the body has under the title and status.
func (f *forModel) room() int { return max(1, f.c.bodyHeight()-headLines) }

// view renders the list, or the answer open, in height-1 lines.
func (f *forModel) view() string {
	s := &f.c.styles
	w, h := f.c.width, f.c.height-1
	title := s.title.Render("backoff") + s.dim.Render(" › ") + "why " + s.bold.Render(f.opts.Type)
	var body []string
	if a := f.shown(); a != nil {
		title += s.dim.Render(" › ") + a.Object.Name
		body = scrolledText(f.answerLines(), f.scroll, f.room(), s)
	} else {
		body = f.rows()
	}
	lines := append([]string{title, f.statusLine(), ""}, body...)
	for i := range lines {
		lines[i] = fit(lines[i], w)
	}
	return strings.Join(pad(lines, h), "\n")
}

// statusLine says what the list holds and how fresh it is.
func (f *forModel) statusLine() string {
	s := &f.c.styles
	var line string
	switch l := f.list; {
	case l == nil && f.err == nil:
		line = s.dim.Render("reading the " + f.opts.Type + ", and asking the controllers of those not Current…")
	case l == nil:
	case f.open != "" && f.shown() == nil:
		line = s.ok.Render("the object is Current now, or gone: esc goes back to the list")
	case l.Total == 0:
		line = "no " + f.opts.Type + " found"
	case len(l.Answers) == 0:
		line = s.ok.Render(fmt.Sprintf("all %d %s are Current: nothing to wait for", l.Total, f.opts.Type))
	default:
		line = fmt.Sprintf("%d of %d not Current · longest-waiting change first", len(l.Answers), l.Total)
	}
	if !f.fetchedAt.IsZero() {
		line += s.dim.Render(" · updated " + ago(f.fetchedAt, f.c.now()))
	}
	if f.err != nil {
		line += s.bad.Render(" · ✗ " + oneLine(f.err.Error()))
	}
	if f.c.paused {
		line += s.warn.Render(" · ⏸ PAUSED")
	}
	return strings.TrimPrefix(line, " · ")
}

// rows is the table, scrolled to keep the cursor on screen.
func (f *forModel) rows() []string {
	s := &f.c.styles
	as := f.answers()
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
			waiting = explain.FormatSeconds(a.Waiting.Duration)
		}
		msg := oneLine(a.Verdict.Message)
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
			b.WriteString(fit(c, widths[j]) + " ")
		}
		return b.String()
	}
	out := []string{s.header.Render(fit(line(cols), f.c.width))}
	room := max(1, f.room()-1)
	first := max(0, min(f.cursor-room+1, len(as)-room))
	first = min(first, f.cursor)
	for i := first; i < min(len(as), first+room); i++ {
		l := fit(line(cells[i]), f.c.width)
		if i == f.cursor {
			l = s.selected.Render(l)
		}
		out = append(out, l)
	}
	return out
}
