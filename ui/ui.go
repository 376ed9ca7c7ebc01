package ui

import (
	"cmp"
	"context"
	"errors"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
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
	// For, when set, opens the UI on `top --for TYPE`: the objects of a kind
	// that are not Current, live. Session and Pods are then not needed.
	For *ForOptions
}

// viewState is which view the root shows.
type viewState int

const (
	viewTop viewState = iota
	viewDetail
	viewGroups
	viewHelp
	viewPicker
	viewFor
)

// Model is the root model: it routes messages to the view shown, acts on
// the intents the views return, and owns what is shared across views (the
// confirmation, the status line, help).
type Model struct {
	c       *common
	state   viewState
	back    viewState // where help returns to
	top     topModel
	detail  detailModel
	groups  groupModel
	picker  pickerModel
	forv    forModel
	help    helpModel
	confirm *confirmation
	nextID  int

	status    string
	statusErr bool
	statusID  int
	// statusLegend is true while the status is a legend (see legend).
	statusLegend bool
	// statusBound says the status is a hint of statusMode's, drawn only
	// while that mode is on the stack (see modes).
	statusBound bool
	statusMode  mode

	// exitErr is why the UI gave up, returned by Run.
	exitErr error
}

// New returns the UI's model for opts; Run runs it. Tests drive it directly.
func New(opts Options) tea.Model { return newModel(context.Background(), opts) }

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
	m := Model{c: c, top: newTopModel(c), detail: detailModel{c: c}, groups: groupModel{c: c}, picker: newPickerModel(c, opts.Pods), help: newHelpModel(c)}
	if opts.Session == nil && len(opts.Pods) > 0 {
		m.state = viewPicker
	}
	if opts.For != nil {
		m.state, m.forv = viewFor, newForModel(c, *opts.For)
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
	switch m.state {
	case viewPicker:
		return tea.RequestBackgroundColor
	case viewFor:
		return tea.Batch(m.forv.refresh(), tick(m.tickEvery()), tea.RequestBackgroundColor)
	}
	return tea.Batch(m.top.refresh(), tick(m.tickEvery()), tea.RequestBackgroundColor)
}

// tickEvery is the refresh clock's period: the refresh, but at least once a
// second so that countdowns move while paused or on a slow refresh.
func (m Model) tickEvery() time.Duration { return min(m.c.opts.Refresh, time.Second) }

// Update routes msg.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.c.width, m.c.height = msg.Width, msg.Height
		m.fitStatus()
		m.help = m.help.setSize()
		m.picker = m.picker.setSize()
		m.detail = m.detail.setSize()
		m.groups.clamp()
		var cmd tea.Cmd
		m.top, cmd = m.top.setSize()
		return m, cmd
	case tea.BackgroundColorMsg:
		m.c.styles = newStyles(msg.IsDark())
		m.help.h.Styles = m.c.styles.help
		return m, nil
	case tickMsg:
		return m, tea.Batch(tick(m.tickEvery()), m.autoRefresh())
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
	case dryRunMsg:
		if m.confirm != nil && m.confirm.id == msg.id {
			m.confirm.count, m.confirm.err = msg.count, msg.err
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
	// Anything else (the cursor's blink) goes to the input being typed:
	// the dialog's reason, or a filter.
	var cmd tea.Cmd
	switch {
	case m.confirm != nil && m.confirm.typing:
		cmd = m.confirm.updateInput(msg)
	case m.state == viewPicker && m.picker.filter.typing():
		m.picker.filter.input, cmd = m.picker.filter.input.Update(msg)
	case m.top.filter.typing():
		m.top.filter.input, cmd = m.top.filter.input.Update(msg)
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
	if msg.seq == m.top.seq && !m.top.reached && msg.err != nil {
		_, refused := errors.AsType[*inspector.APIError](msg.pageErr)
		if refused || m.c.now().Sub(m.top.failedSince) >= m.c.opts.GiveUp {
			m.exitErr = cmp.Or(msg.pageErr, msg.err)
			return m, tea.Quit
		}
	}
	// A legend waits for a footer free of anything else: it must not wipe
	// out what an action just reported (a forget changes rows, and so calls
	// for "•").
	legend := false
	if note == "" && (m.status == "" || m.statusLegend) {
		note, legend = m.legend(), true
	}
	if note != "" {
		status := m.setStatus(note, false)
		m.statusLegend = legend
		return m, tea.Batch(cmd, status)
	}
	return m, cmd
}

// legend explains the marks on screen the first time each appears: the
// footer says it once, help says it always.
func (m *Model) legend() string {
	seen := m.c.seenMarks
	var out []string
	if len(m.top.changed) > 0 && !seen["•"] {
		seen["•"] = true
		out = append(out, "• marks a row that changed since the previous refresh")
	}
	if p := m.top.page; p != nil && !seen["*"] && slices.ContainsFunc(p.Items, func(k inspector.PodKey) bool { return k.Estimated }) {
		seen["*"] = true
		out = append(out, "* marks a key estimated from logs")
	}
	if ov := m.top.overview; ov != nil && !seen["│"] && slices.ContainsFunc(ov.Controllers, func(c api.Controller) bool { return c.Pending > 0 }) {
		seen["│"] = true
		out = append(out, "│▁▃█│ counts the keys falling due over the next 60s")
	}
	if len(out) == 0 {
		return ""
	}
	return strings.Join(out, "; ") + " (? explains every mark)"
}

// key handles a key press: the dialog first, then a filter being typed,
// then the global keys, then the view shown, whose intent the root acts on.
func (m Model) key(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	k := &m.c.keys
	if key.Matches(msg, k.Interrupt) {
		return m, tea.Quit
	}
	if m.confirm != nil {
		cmd, done, cancel := m.confirm.update(msg)
		switch {
		case done:
			act := m.confirm.act
			m.confirm = nil
			return m, tea.Batch(forgetCmd(m.c.conn.ctx, m.c.conn.session, act), m.setStatus(act.verb()+"…", false))
		case cancel:
			m.confirm = nil
			return m, m.setStatus("cancelled: nothing was changed", false)
		}
		return m, cmd
	}
	var cmd tea.Cmd
	var in intent
	switch {
	case m.state == viewPicker:
		m.picker, cmd = m.picker.update(msg)
		return m, cmd
	case m.state == viewHelp:
		m.help, cmd, in = m.help.update(msg)
		return m.act(in, cmd)
	case m.state == viewTop && m.top.filter.typing():
		m.top, cmd, in = m.top.update(msg)
		return m.act(in, cmd)
	}
	switch {
	case key.Matches(msg, k.Quit):
		return m, tea.Quit
	case key.Matches(msg, k.Help):
		m.back, m.state, m.help.scroll = m.state, viewHelp, 0
		return m, nil
	case key.Matches(msg, k.Pause):
		m.c.paused = !m.c.paused
		if m.c.paused {
			return m, m.setHint("paused: p resumes, ctrl+r refreshes once", modePaused)
		}
		return m, tea.Batch(m.refreshNow(), m.setStatus("resumed", false))
	case key.Matches(msg, k.Refresh):
		return m, m.refreshNow()
	}
	switch m.state {
	case viewFor:
		if m.forv.open != "" && key.Matches(msg, m.forv.keys.Open) {
			return m.openKey()
		}
		m.forv, cmd = m.forv.update(msg)
	case viewDetail:
		m.detail, cmd, in = m.detail.update(msg)
	case viewGroups:
		m.groups, cmd, in = m.groups.update(msg)
	default:
		m.top, cmd, in = m.top.update(msg)
	}
	return m.act(in, cmd)
}

// act does what a view asked for, after its own command cmd.
func (m Model) act(in intent, cmd tea.Cmd) (tea.Model, tea.Cmd) {
	var next tea.Cmd
	switch in := in.(type) {
	case nil:
	case openKeyIntent:
		m.state = viewDetail
		m.detail, next = m.detail.open(in.controller, in.key)
	case openGroupsIntent:
		m.state = viewGroups
		m.groups, next = m.groups.open(&m.top)
	case closeHelpIntent:
		m.state = m.back
	case backIntent:
		if m.c.opts.For != nil {
			m.state = viewFor // the key detail was opened from an answer
			break
		}
		m.state = viewTop
		next = m.top.refresh()
	case showGroupIntent:
		m.state = viewTop
		cmd := m.top.showGroup(in)
		next = tea.Batch(cmd, m.setHint("showing the keys of one error group: esc goes back to the view before it", modeDrill))
	case askIntent:
		var mm tea.Model
		mm, next = m.ask(in.act)
		m = mm.(Model)
	case noteIntent:
		next = m.setStatus(in.text, in.isErr)
	}
	return m, tea.Batch(cmd, next)
}
