package view

import (
	"context"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	objwhy "github.com/kubectl-backoff/kubectl-backoff/internal/inspector/why"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/widget"
)

// The chain view: what an answer of `top --for` waits for, as the tree
// `why TYPE/NAME` prints (each object its verdict and one line, the
// blockers marked); enter on an object opens its own answer, read again
// (ForOptions.Ask), and enter on that answer opens its key's detail when
// the key was read from an instrumented endpoint. It is a view as every
// other: this file, and its line in the root (registerView, layer.go); the
// `top --for` view opens it with an OpenIntent.

// chainAskTimeout bounds one answer: a search for the controller, a read
// of the key, and a walk of the object's own chain.
const chainAskTimeout = time.Minute

// ChainAskedMsg carries an answer the chain view asked for: of the chain's
// root when the list did not walk it (root), else of the node at id.
type ChainAskedMsg struct {
	id   string
	root bool
	a    *objwhy.Answer
	err  error
}

// chainAskCmd asks for the answer of o.
func chainAskCmd(ctx context.Context, ask func(context.Context, objwhy.Object) (*objwhy.Answer, error), o objwhy.Object, root bool) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(ctx, chainAskTimeout)
		defer cancel()
		a, err := ask(ctx, o)
		return ChainAskedMsg{id: nodeRef(o), root: root, a: a, err: err}
	}
}

func nodeRef(o objwhy.Object) string { return o.Ref() + " -n " + o.Namespace }

// chainRow is one object of the tree as shown: the node escaped for the
// screen, the node as read (its names), its depth.
type chainRow struct {
	node, raw *objwhy.Node
	depth     int
}

// chainKeyMap is the chain view's keys.
type chainKeyMap struct {
	widget.ScrollKeys
	Open, Leave, Refresh, Help, Quit key.Binding
}

// ShortHelp is the footer's help. help.KeyMap.
func (k chainKeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Open, k.Leave, k.Refresh, k.Help, k.Quit}
}

// FullHelp is every binding of the view. help.KeyMap.
func (k chainKeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Up, k.Down, k.PageUp, k.PageDown, k.Home, k.End}, {k.Open, k.Leave}, {k.Refresh, k.Help, k.Quit}}
}

// Chain is the chain of one answer, and the answer of one of its
// objects when enter opened it.
type Chain struct {
	C    *Common
	keys chainKeyMap

	root, rawRoot *objwhy.Answer
	rows          []chainRow
	cursor        int
	// opened is the object whose answer is shown ("" for the tree); answer,
	// raw its answer as escaped and as read, once it arrived.
	opened      string
	answer, raw *objwhy.Answer
	asking      bool
	err         error
	scroll      int
}

// NewChain is the chain view of an answer (shown escaped, raw as read),
// and its first read: an answer whose chain the list did not walk is
// asked for again, with its chain.
func NewChain(c *Common, shown, raw *objwhy.Answer) (Chain, tea.Cmd) {
	k := &c.Keys
	v := Chain{C: c, keys: chainKeyMap{ScrollKeys: rowKeys(k, "object"),
		Open:    key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "its answer")),
		Leave:   key.NewBinding(key.WithKeys("esc", "left"), key.WithHelp("esc", "back")),
		Refresh: k.Refresh, Help: k.Help, Quit: k.Quit}}
	return v.show(shown, raw)
}

// ask is ForOptions.Ask, nil when the UI runs without one.
func (v *Chain) ask() func(context.Context, objwhy.Object) (*objwhy.Answer, error) {
	if f := v.C.Opts.For; f != nil {
		return f.Ask
	}
	return nil
}

// show shows an answer's chain; an answer whose chain the list did not
// walk is asked for again, with its chain.
func (v Chain) show(shown, raw *objwhy.Answer) (Chain, tea.Cmd) {
	v.root, v.rawRoot, v.opened, v.answer, v.raw, v.err, v.cursor, v.scroll = shown, raw, "", nil, nil, nil, 0, 0
	v.flatten()
	if raw.Chain == nil && v.ask() != nil {
		v.asking = true
		return v, v.C.Stamp(chainAskCmd(v.C.Conn.Ctx, v.ask(), raw.Object, true))
	}
	v.setKeys()
	return v, nil
}

// flatten lays the tree out as rows, depth first, as `why` prints it.
func (v *Chain) flatten() {
	v.rows = nil
	if v.root == nil || v.root.Chain == nil || v.rawRoot == nil || v.rawRoot.Chain == nil {
		return
	}
	var walk func(n, raw *objwhy.Node, depth int)
	walk = func(n, raw *objwhy.Node, depth int) {
		v.rows = append(v.rows, chainRow{node: n, raw: raw, depth: depth})
		for i := range min(len(n.Below), len(raw.Below)) {
			walk(n.Below[i], raw.Below[i], depth+1)
		}
	}
	walk(v.root.Chain.Root, v.rawRoot.Chain.Root, 0)
	v.cursor = max(0, min(v.cursor, len(v.rows)-1))
}

// received takes an answer in: the root's chain, or the node's answer
// still open.
func (v Chain) received(msg ChainAskedMsg) Chain {
	v.asking, v.err = false, msg.err
	switch {
	case msg.err != nil || msg.a == nil:
	case msg.root:
		v.rawRoot, v.root = msg.a, escapedAnswer(msg.a)
		v.flatten()
	case msg.id == v.opened:
		v.raw, v.answer, v.scroll = msg.a, escapedAnswer(msg.a), 0
	}
	v.setKeys()
	return v
}

// escapedAnswer is a, deep-copied, every string escaped for the terminal.
func escapedAnswer(a *objwhy.Answer) *objwhy.Answer {
	out, _ := widget.DeepCopy(a)
	widget.PrintableFields(out)
	return out
}

// askable reports whether a row stands for an object that can be read.
func askable(r chainRow) bool {
	return r.node.Omitted == 0 && r.node.Status != objwhy.NotFound && r.raw.Object.Name != ""
}

// update handles a key: in the tree, move and open; in an answer, scroll,
// open the key's detail, or go back to the tree.
func (v Chain) update(msg tea.KeyPressMsg) (Chain, tea.Cmd, Intent) {
	k := &v.keys
	var cmd tea.Cmd
	var in Intent
	switch {
	case v.opened != "" && key.Matches(msg, k.Leave):
		v.opened, v.answer, v.raw, v.err, v.scroll = "", nil, nil, nil, 0
	case v.opened == "" && key.Matches(msg, k.Leave):
		in = BackIntent{}
	case v.opened != "" && key.Matches(msg, k.Open):
		if HasKey(v.raw) {
			in = OpenAnswerKeyIntent{Shown: v.answer, Raw: v.raw}
		}
	case v.opened != "":
		lines := answerText(v.C, v.answer)
		widget.ScrollBy(v.C.Keys.ScrollKeys(), msg, &v.scroll, max(1, v.room()-1), len(lines))
		v.scroll = widget.ClampText(v.scroll, len(lines), v.room())
	case key.Matches(msg, k.Open):
		if v.cursor < len(v.rows) && askable(v.rows[v.cursor]) && v.ask() != nil {
			cmd = v.askOpen(v.rows[v.cursor].raw.Object)
		}
	default:
		widget.ScrollBy(k.ScrollKeys, msg, &v.cursor, max(1, v.room()-1), len(v.rows))
		v.cursor = max(0, min(v.cursor, len(v.rows)-1))
	}
	v.setKeys()
	return v, cmd, in
}

// askOpen opens the answer of o, asking for it.
func (v *Chain) askOpen(o objwhy.Object) tea.Cmd {
	v.opened, v.answer, v.raw, v.err, v.scroll, v.asking = nodeRef(o), nil, nil, nil, 0, true
	return v.C.Stamp(chainAskCmd(v.C.Conn.Ctx, v.ask(), o, false))
}

// reloadNow asks again for what is shown: the answer open, else the root.
func (v Chain) ReloadNow() (View, tea.Cmd) {
	if v.ask() == nil || v.asking || v.rawRoot == nil {
		return v, nil
	}
	if v.opened != "" {
		o := v.rows[v.cursor].raw.Object
		cmd := v.askOpen(o)
		return v, cmd
	}
	v.asking = true
	return v, v.C.Stamp(chainAskCmd(v.C.Conn.Ctx, v.ask(), v.rawRoot.Object, true))
}

// setKeys enables what the view shown takes: enter on an object that can
// be asked about, or on an answer whose key the detail can open.
func (v *Chain) setKeys() {
	switch {
	case v.opened != "":
		v.keys.Open.SetEnabled(HasKey(v.raw) && v.C.Opts.For != nil && v.C.Opts.For.Attach != nil)
		v.keys.Open.SetHelp("enter", "key detail")
		v.keys.Leave.SetHelp("esc", "back to the chain")
	default:
		v.keys.Open.SetEnabled(v.ask() != nil && v.cursor < len(v.rows) && askable(v.rows[v.cursor]))
		v.keys.Open.SetHelp("enter", "its answer")
		v.keys.Leave.SetHelp("esc", "back")
	}
}

func (v *Chain) room() int { return max(1, v.C.bodyHeight()-HeadLines) }

// view renders the tree, or the answer open.
func (v *Chain) view() string {
	s := &v.C.Styles
	title := s.Title.Render("backoff") + s.Dim.Render(" › ") + "chain"
	if v.root != nil {
		title += " " + s.Bold.Render(v.root.Object.Ref())
	}
	var body []string
	if v.opened != "" {
		title += s.Dim.Render(" › ") + v.rows[v.cursor].node.Object.Ref()
		body = widget.ScrolledText(answerText(v.C, v.answer), v.scroll, v.room(), s)
	} else {
		body = v.tree()
	}
	lines := append([]string{title, v.statusLine(), ""}, body...)
	for i := range lines {
		lines[i] = widget.Fit(lines[i], v.C.Width)
	}
	return strings.Join(widget.Pad(lines, v.C.Height-1), "\n")
}

// statusLine says what is shown, or being read.
func (v *Chain) statusLine() string {
	s := &v.C.Styles
	var line string
	switch {
	case v.asking && v.opened != "":
		line = s.Dim.Render("asking why for " + v.rows[v.cursor].node.Object.Ref() + "…")
	case v.asking:
		line = s.Dim.Render("reading the chain…")
	case v.opened != "":
		line = "its own answer, read now"
	case len(v.rows) == 0:
		line = "no chain: the object waits for nothing the walk could read"
	default:
		blockers := 0
		for _, r := range v.rows {
			if r.node.Blocker {
				blockers++
			}
		}
		line = fmt.Sprintf("%d objects · %d %s · enter: an object's answer", len(v.rows), blockers, plural(blockers, "blocker"))
	}
	if v.err != nil {
		line += s.Bad.Render(" · ✗ " + text.OneLine(v.err.Error(), 0))
	}
	return line
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// tree is the rows, each its object, how its parent reaches it, its
// verdict and line, the cursor's row selected and kept on screen.
func (v *Chain) tree() []string {
	s := &v.C.Styles
	var out []string
	room := max(1, v.room())
	first := max(0, min(v.cursor-room+1, len(v.rows)-room))
	for i := first; i < min(len(v.rows), first+room); i++ {
		n := v.rows[i].node
		var b strings.Builder
		b.WriteString(widget.SelectedMark(i == v.cursor) + strings.Repeat("  ", v.rows[i].depth))
		switch {
		case n.Omitted > 0:
			b.WriteString("(" + n.Line + ")")
		default:
			b.WriteString(n.Object.Ref())
			if n.Via != "" {
				b.WriteString(s.Dim.Render(" [" + n.Via + "]"))
			}
			b.WriteString("  " + n.Status)
			if n.Blocker {
				b.WriteString(s.Bad.Render("  ← blocker"))
			}
			if n.Status != objwhy.Current && n.Line != "" {
				b.WriteString(s.Dim.Render("  " + n.Said()))
			}
		}
		l := widget.Fit(b.String(), v.C.Width)
		if i == v.cursor {
			l = s.Selected.Render(l)
		}
		out = append(out, l)
	}
	if v.root != nil && v.root.Chain != nil {
		for _, c := range v.root.Chain.Cut {
			out = append(out, s.Dim.Render("(cut: "+text.OneLine(c, 0)+")"))
		}
	}
	return out
}

// The view's adapters (View, Receiver): it reads only on demand, so
// nothing is stale; ctrl+r reads what it shows again.

// OnKey handles a key. View.
func (v Chain) OnKey(msg tea.KeyPressMsg) (View, tea.Cmd, Intent) { return v.update(msg) }

// Render draws the tree, or the answer open. View.
func (v Chain) Render() string { return v.view() }

// HintKeys is the view's key map. View.
func (v Chain) HintKeys() help.KeyMap { return v.keys }

// Stale is never: the view reads on demand. View.
func (v Chain) Stale() bool { return false }

// Reload reads nothing: the view reads on demand. View.
func (v Chain) Reload() (View, tea.Cmd) { return v, nil }

// Resize lays nothing out: the view fits each line as it draws. View.
func (v Chain) Resize() (View, tea.Cmd) { return v, nil }

// Receive takes in an answer the view asked for. Receiver.
func (v Chain) Receive(msg tea.Msg) (View, tea.Cmd, Intent, bool) {
	if m, ok := msg.(ChainAskedMsg); ok {
		return v.received(m), nil, nil, true
	}
	return v, nil, nil, false
}
