package ui

import (
	"context"
	"errors"
	"io"
	"os"
	"time"

	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector"
	objwhy "github.com/kubectl-backoff/kubectl-backoff/internal/inspector/why"
)

// AttachFunc opens a session on one pod. ctx bounds the attach only: the
// session lives until it is closed.
type AttachFunc func(ctx context.Context, pod inspector.Pod) (*inspector.Session, *inspector.ObjectReader, error)

// Options configures the UI. Session, or Pods with Attach, is required.
// The UI never changes them: what it attaches to later is its own state.
type Options struct {
	// Session is the attached endpoint(s). The UI does not close it.
	Session *inspector.Session
	// Input is where keys are read from; nil is stdin (or, when stdin is
	// not a terminal, the terminal Bubble Tea opens). A log piped into top
	// takes stdin: keys then come from the terminal (/dev/tty), as less does.
	Input io.Reader
	// Pods, when Session is nil, are the instrumented pods discovery found
	// with no TARGET to say which: the UI opens on a picker of them and
	// attaches to the one picked with Attach. It closes that session itself
	// when it exits, since the caller never sees it.
	Pods   []inspector.Pod
	Attach AttachFunc
	// Objects reads the object behind a key for the detail view; may be nil
	// (with --addr there is no cluster to read from).
	Objects *inspector.ObjectReader
	// Chain walks the chain of the object behind a key, for the detail
	// view's blocker line (why.Asker.ChainOf); nil shows none. Called from
	// a tea.Cmd, at most once per detailChainEvery.
	Chain func(ctx context.Context, o objwhy.Object) (*objwhy.Chain, error)
	// NoObjects says why Objects is nil, for the detail view, e.g.
	// "attached with --addr". Defaults to "no cluster access in this session".
	NoObjects string
	// Refresh is how often the view is refreshed. Defaults to 1s if unset.
	Refresh time.Duration
	// GiveUp is how long the UI keeps trying an endpoint it never reached
	// before it exits with the error. Defaults to 30s if unset.
	GiveUp time.Duration
	// Context and Namespace are shown in the header.
	Context, Namespace string
	// SnapshotAt, when set, says the session is a snapshot taken then (on
	// the server's clock): the header says so instead of how fresh the view is.
	SnapshotAt time.Time
	// Controller, States and Filter are the initial selection, as --controller,
	// --state and -q give them.
	Controller string
	States     []api.State
	Filter     string
	// User is who a forget says is asking: the kubeconfig's user, else
	// $USER. The endpoint records it marked unverified unless it
	// authenticated the request itself. Defaults to none.
	User string
	// Clock is the local clock, for countdowns between refreshes. Defaults to
	// time.Now if unset; tests fix it.
	Clock func() time.Time
	// Watch reads the page through a watch where the endpoint offers one
	// (inspector.Session.Watch): the page top asks for every second then
	// costs the controller one computation a tick for all who watch it.
	Watch bool
	// For, when set, opens the UI on `top --for TYPE`: the objects of a kind
	// that are not Current, live. Session and Pods are then not needed.
	For *ForOptions
}

// Model is the root model: it holds the stack of modes (what is open, see
// modes.go), routes a key to the mode on top and other messages to the
// view they are for, acts on the intents the views return, and owns what
// is shared across views (the dialog, the status line, the hints line).
type Model struct {
	c *common
	// stack is the modes open, bottom first; never empty.
	stack  []mode
	top    topModel
	detail detailModel
	groups groupModel
	picker pickerModel
	forv   forModel
	chain  chainModel
	help   helpModel
	// confirm is the dialog's state while modeConfirm is on the stack.
	confirm *confirmation
	nextID  int
	// hints draws the hints line (bubbles' help, short form).
	hints help.Model

	status    string
	statusErr bool
	statusID  int
	// statusLegend is true while the status is a legend (see legend).
	statusLegend bool
	// statusBound says the status is a hint of statusMode's, drawn only
	// while that mode is on the stack (see statusShown).
	statusBound bool
	statusMode  mode

	// exitErr is why the UI gave up, returned by Run.
	exitErr error
}

// newModel is the UI's model for opts; Run runs it, and tests drive it
// directly.
func newModel(ctx context.Context, opts Options) Model {
	if opts.Refresh <= 0 {
		opts.Refresh = time.Second
	}
	if opts.GiveUp <= 0 {
		opts.GiveUp = 30 * time.Second
	}
	if opts.Clock == nil {
		opts.Clock = time.Now
	}
	c := &common{width: 80, height: 24, styles: newStyles(true), keys: newKeyMap(), opts: opts, seenMarks: map[string]bool{},
		conn: conn{ctx: ctx, session: opts.Session, objects: opts.Objects, namespace: opts.Namespace, owned: &sessions{}}}
	m := Model{c: c, stack: []mode{modeTop}, top: newTopModel(c), detail: detailModel{c: c}, groups: groupModel{c: c},
		picker: newPickerModel(c, opts.Pods), help: newHelpModel(c), hints: newHints(c), chain: newChainModel(c)}
	if opts.Session != nil && opts.Watch {
		opts.Session.Watch(ctx)
	}
	c.keys.setStill(c.snapshot())
	if opts.Session == nil && len(opts.Pods) > 0 {
		m.stack = []mode{modePicker}
	}
	if opts.For != nil {
		m.stack, m.forv = []mode{modeFor}, newForModel(c, *opts.For)
	}
	return m
}

// Run runs the UI until the user quits or ctx ends. NO_COLOR (any value)
// turns colours off; bold, reverse and the text markers stay. An endpoint
// never reached within Options.GiveUp ends it with the error.
func Run(ctx context.Context, opts Options) error {
	if opts.Session == nil && (len(opts.Pods) == 0 || opts.Attach == nil) && opts.For == nil {
		return errors.New("ui: no session, and no pods to pick one from")
	}
	// Cancelled on return, so that an attach still under way gives up.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	popts := []tea.ProgramOption{tea.WithContext(ctx)}
	if opts.Input != nil {
		popts = append(popts, tea.WithInput(opts.Input))
	}
	if os.Getenv("NO_COLOR") != "" {
		popts = append(popts, tea.WithColorProfile(colorprofile.Ascii))
	}
	m := newModel(ctx, opts)
	final, err := tea.NewProgram(m, popts...).Run()
	m.c.conn.owned.closeAll()
	if errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil {
		return nil
	}
	if fm, ok := final.(Model); ok && err == nil && fm.exitErr != nil {
		return fm.exitErr
	}
	return err
}

// Init starts the first refresh and the refresh clock, and asks the
// terminal for its background so the palette fits it. The picker has
// nothing to refresh: both start once a pod is attached.
func (m Model) Init() tea.Cmd {
	switch m.view() {
	case modePicker:
		return tea.RequestBackgroundColor
	case modeFor:
		return tea.Batch(m.forv.refresh(), tick(m.tickEvery()), tea.RequestBackgroundColor)
	}
	return tea.Batch(m.top.refresh(), tick(m.tickEvery()), tea.RequestBackgroundColor)
}

// tickEvery is the refresh clock's period: the refresh, but at least once a
// second so that countdowns move while paused or on a slow refresh.
func (m Model) tickEvery() time.Duration { return min(m.c.opts.Refresh, time.Second) }

// Update routes msg; then, when the rows the table has room for changed
// (a status shown, a header grown), the top view reads its page again.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	next, cmd := m.update(msg)
	mm, ok := next.(Model)
	if !ok || mm.view() != modeTop || mm.c.conn.session == nil {
		return next, cmd
	}
	return mm, tea.Batch(cmd, mm.top.refit())
}

func (m Model) update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.c.width, m.c.height = msg.Width, msg.Height
		m.fitStatus()
		m.hints.SetWidth(msg.Width)
		var cmds []tea.Cmd
		for _, md := range viewOrder {
			v, cmd := m.viewAt(md).resize()
			m.setView(md, v)
			cmds = append(cmds, cmd)
		}
		return m, tea.Batch(cmds...)
	case tea.BackgroundColorMsg:
		m.c.styles = newStyles(msg.IsDark())
		m.help = m.help.setStyles(m.c.styles.help)
		m.hints.Styles = m.c.styles.help
		return m, nil
	case tickMsg:
		return m, tea.Batch(tick(m.tickEvery()), m.autoRefresh())
	case readMsg:
		if m.dropped(msg) {
			return m, nil
		}
		return m.update(msg.msg)
	case refreshedMsg:
		return m.refreshed(msg)
	case detailFetchedMsg:
		m.detail = m.detail.received(msg)
		m.followKey()
		return m, nil
	case groupsFetchedMsg:
		m.groups = m.groups.received(msg)
		return m, nil
	case forFetchedMsg:
		m.forv = m.forv.received(msg)
		return m, nil
	case forAttachedMsg:
		return m.showForKey(msg)
	case detailChainMsg:
		m.detail = m.detail.chainReceived(msg)
		return m, nil
	case chainAskedMsg:
		m.chain = m.chain.received(msg)
		return m, nil
	case dryRunMsg:
		if m.confirm != nil && m.confirm.counted(msg) {
			m.top.forecast(&m.confirm.act) // about the controllers counted
		}
		return m, nil
	case forgetDoneMsg:
		return m.forgetDone(msg)
	case attachedMsg:
		return m.attached(msg)
	case statusExpiredMsg:
		if msg.id == m.statusID {
			m.status = ""
			m.fitStatus()
		}
		return m, nil
	case tea.KeyPressMsg:
		next, cmd := m.key(msg)
		if mm, ok := next.(Model); ok {
			mm.fitStatus() // a key may take a hint's mode off the stack
			return mm, cmd
		}
		return next, cmd
	}
	// Anything else (the cursor's blink) goes to the input of the mode on
	// top: the dialog's reason, or a filter line.
	var cmd tea.Cmd
	switch m.topMode() {
	case modeConfirm:
		cmd = m.confirm.updateInput(msg)
	case modeFilter:
		var v view
		v, cmd = m.viewAt(m.view()).(filterView).onFilterInput(msg)
		m.setView(m.view(), v)
	}
	return m, cmd
}

// refreshed takes a refresh of the top view in. An endpoint that never
// answered ends the UI after GiveUp with the error `get` would print; one
// that refuses the query as given (an unknown --controller) ends it at once.
func (m Model) refreshed(msg refreshedMsg) (tea.Model, tea.Cmd) {
	var cmd tea.Cmd
	var note string
	m.top, cmd, note = m.top.received(msg)
	m.followKey()
	if err := m.top.gaveUp(msg); err != nil {
		m.exitErr = err
		return m, tea.Quit
	}
	// A legend waits for a footer free of anything else: it must not wipe
	// out what an action just reported (a forget changes rows, and so calls
	// for "•").
	legend := false
	if note == "" && (m.status == "" || m.statusLegend) {
		note, legend = m.top.legend(), true
	}
	if note != "" {
		status := m.setStatus(note, false)
		m.statusLegend = legend
		return m, tea.Batch(cmd, status)
	}
	return m, cmd
}
