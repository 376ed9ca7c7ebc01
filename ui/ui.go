package ui

import (
	"context"
	"errors"
	"os"
	"time"

	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/view"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/widget"
)

// Model is the root model: it holds the stack of views (what is open, see
// modes.go), routes a key to the mode on top and other messages to the
// view they are for, acts on the intents the views return, and owns what
// is shared across views (the status line, the hints line).
type Model struct {
	c *view.Common
	// stack is the views open and the modes inside them, bottom first;
	// never empty. It holds the views themselves (modes.go's layer).
	stack []layer
	// keyFrom is the mode an answer's key was opened from
	// (view.OpenAnswerKeyIntent): its detail opens once attached
	// (view.OpenWaitedIntent) only if the user is still there.
	keyFrom mode
	nextID  int
	// hints draws the hints line (bubbles' help, short form).
	hints help.Model

	status    string
	statusErr bool
	statusID  int
	// statusLegend is true while the status is a legend (see legend).
	statusLegend bool
	// statusOutcome is true while the status is a dialog's outcome
	// (cancelled, done, failed): the next dialog opened clears it.
	statusOutcome bool
	// statusBound says the status is a hint of statusMode's, drawn only
	// while that mode is on the stack (see statusShown).
	statusBound bool
	statusMode  mode

	// exitErr is why the UI gave up, returned by Run.
	exitErr error
	// first is the first read of the view the UI opens on (view.Opening),
	// sent by Init; nil for a view that reads nothing (the picker).
	first tea.Cmd
}

// newModel is the UI's model for opts; Run runs it, and tests drive it
// directly.
func newModel(ctx context.Context, opts view.Options) Model {
	if opts.Refresh <= 0 {
		opts.Refresh = time.Second
	}
	if opts.GiveUp <= 0 {
		opts.GiveUp = 30 * time.Second
	}
	if opts.Clock == nil {
		opts.Clock = time.Now
	}
	c := &view.Common{Width: 80, Height: 24, Styles: widget.NewStyles(true), Keys: view.NewKeyMap(), Opts: opts, SeenMarks: map[string]bool{},
		Conn: view.Conn{Ctx: ctx, Session: opts.Session, Objects: opts.Objects, Namespace: opts.Namespace, Owned: &view.Sessions{}}}
	if opts.Session != nil && opts.Watch {
		opts.Session.Watch(ctx)
	}
	v, first := view.Opening(c)
	md, _ := modeOf(v)
	return Model{c: c, stack: []layer{{md: md, v: v}}, hints: newHints(c), first: first}
}

// Run runs the UI until the user quits or ctx ends. NO_COLOR (any value)
// turns colours off; bold, reverse and the text markers stay. An endpoint
// never reached within Options.GiveUp ends it with the error.
func Run(ctx context.Context, opts view.Options) error {
	if opts.Session == nil && (len(opts.Pods) == 0 || opts.Attach == nil) && opts.For == nil && opts.Fleet == nil {
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
	m.c.Conn.Owned.CloseAll()
	if errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil {
		return nil
	}
	if fm, ok := final.(Model); ok && err == nil && fm.exitErr != nil {
		return fm.exitErr
	}
	return err
}

// Init starts the first refresh and the refresh clock, asks the terminal
// for its background so the palette fits it, and waits for the session's
// watch. A view that reads nothing (the picker) has nothing to refresh:
// all start once a pod is attached (view.StartIntent).
func (m Model) Init() tea.Cmd {
	if m.first == nil {
		return tea.RequestBackgroundColor
	}
	return tea.Batch(m.first, tick(m.tickEvery()), tea.RequestBackgroundColor, awaitWatch(m.c.Conn.Session))
}

// tickEvery is the refresh clock's period: the refresh, but at least once a
// second so that countdowns move while paused or on a slow refresh.
func (m Model) tickEvery() time.Duration { return min(m.c.Opts.Refresh, time.Second) }

// Update routes msg; then, when the rows the view shown has room for
// changed (a status shown, a header grown), a view that reads what fits
// (view.Refitter: the table's page) reads again.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	next, cmd := m.update(msg)
	mm, ok := next.(Model)
	if !ok || mm.c.Conn.Session == nil {
		return next, cmd
	}
	md := mm.view()
	r, refits := mm.viewAt(md).(view.Refitter)
	if !refits {
		return next, cmd
	}
	v, refit := r.Refitted()
	mm.setView(md, v) // before mm is returned
	return mm, tea.Batch(cmd, refit)
}

func (m Model) update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.c.Width, m.c.Height = msg.Width, msg.Height
		m.fitStatus()
		m.hints.SetWidth(msg.Width)
		var cmds []tea.Cmd
		for _, md := range viewOrder {
			if m.viewAt(md) == nil {
				continue // a registered view not opened yet
			}
			v, cmd := m.viewAt(md).Resize()
			m.setView(md, v)
			cmds = append(cmds, cmd)
		}
		return m, tea.Batch(cmds...)
	case tea.BackgroundColorMsg:
		// The views draw with the styles as they are when they draw.
		m.c.Styles = widget.NewStyles(msg.IsDark())
		m.hints.Styles = m.c.Styles.Help
		return m, nil
	case tickMsg:
		return m, tea.Batch(tick(m.tickEvery()), m.autoRefresh())
	case watchEventMsg:
		return m.watchEvent(msg)
	case view.ReadMsg:
		if m.dropped(msg) {
			mm, cmd, _ := m.receive(view.DroppedMsg{Msg: msg.Msg})
			return mm, cmd
		}
		return m.update(msg.Msg)
	case dryRunMsg:
		if c := m.dialog(); c != nil && c.Counted(msg.id, msg.count, msg.permanents, msg.hit, msg.err) {
			m.forecast(&c.Act) // about the controllers counted
		}
		return m, nil
	case forgetDoneMsg:
		return m.forgetDone(msg)
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
	if mm, cmd, ok := m.receive(msg); ok {
		return mm, cmd
	}
	// Anything else (the cursor's blink) goes to the input of the mode on
	// top: the dialog's reason, or a filter line.
	var cmd tea.Cmd
	switch m.topMode() {
	case modeConfirm:
		cmd = m.dialog().UpdateInput(msg)
	case modeFilter:
		var v view.View
		v, cmd = m.viewAt(m.view()).(view.FilterView).OnFilterInput(msg)
		m.setView(m.view(), v)
	}
	return m, cmd
}

// The options are defined where the views read them (package view), and
// are the UI's public entry points here, beside Run.
type (
	// Options configures the UI: view.Options.
	Options = view.Options
	// AttachFunc opens a session on one pod: view.AttachFunc.
	AttachFunc = view.AttachFunc
	// ForOptions opens the UI on `top --for TYPE`: view.ForOptions.
	ForOptions = view.ForOptions
	// ForAttachFunc opens a session on a controller's pods: view.ForAttachFunc.
	ForAttachFunc = view.ForAttachFunc
	// FleetOptions opens the UI on the fleet view: view.FleetOptions.
	FleetOptions = view.FleetOptions
)

// receive offers msg to the views open that take messages in
// (view.Receiver), each once, in the order registered; ok reports that one
// took it. What the view asks after it is done here,
// as a key's intent is; then the open dialog follows its key as the views
// now show it.
func (m Model) receive(msg tea.Msg) (_ Model, _ tea.Cmd, ok bool) {
	for _, md := range viewOrder {
		r, isReceiver := m.viewAt(md).(view.Receiver)
		if !isReceiver {
			continue // nor a registered view not opened yet (nil)
		}
		next, cmd, in, took := r.Receive(msg)
		if !took {
			continue
		}
		m.setView(md, next)
		m.followKey()
		switch in := in.(type) {
		case view.QuitIntent:
			m.exitErr = in.Err
			return m, tea.Quit, true
		case view.FooterIntent:
			return m, tea.Batch(cmd, m.sayFooter(in, md)), true
		}
		mm, act := m.act(in, cmd)
		return mm.(Model), act, true
	}
	return m, nil, false
}

// sayFooter says a view's note after an answer, bound to the view's mode
// (drawn only while it is shown, never over a view it does not concern);
// else its legend, when the footer is free: a legend must not wipe out
// what an action just reported (a forget changes rows, and so calls for
// "•").
func (m *Model) sayFooter(in view.FooterIntent, md mode) tea.Cmd {
	note, legend := in.Note, false
	if note == "" && in.Legend != nil && (m.status == "" || m.statusLegend) {
		note, legend = in.Legend(), true
	}
	if note == "" {
		return nil
	}
	cmd := m.setHint(note, md)
	m.statusLegend = legend
	return cmd
}
