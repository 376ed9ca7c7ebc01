package view

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
	fleetread "github.com/kubectl-backoff/kubectl-backoff/internal/inspector/fleet"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/widget"
)

// The fleet view (`kubectl backoff fleet`): every instrumented controller
// of every cluster, read from Prometheus, worst first. Enter attaches to a
// row's controller through the kube context its cluster maps to, or says
// the command to run. A read that fails (the server down, a 5xx, a PromQL
// error) is said in the server's words over the last read, which stays,
// dimmed; a Thanos partial response is said as such.

// fleetReadTimeout bounds one read of every panel.
const fleetReadTimeout = 30 * time.Second

// fleetWorstShown is how many of the selected row's worst keys are drawn
// under it.
const fleetWorstShown = 3

// FleetOptions are the fleet view's, given by the CLI.
type FleetOptions struct {
	// Read reads the fleet once (fleet.Read with the command's flags).
	Read func(ctx context.Context) (*fleetread.Fleet, error)
	// Filter and Sort are applied to each read (fleet.Filter, fleet.Sort).
	Filter   string
	Clusters []string
	Sort     string
	// ContextFor is the kube context a cluster maps to, if any is known.
	ContextFor func(cluster string) (string, bool)
	// Attach is called with the row enter chose and its context, just
	// before the UI quits for the CLI to run top there.
	Attach func(row fleetread.Row, kubeContext string)
}

// FleetReadMsg is a read of the fleet view: the fleet, or why not.
type FleetReadMsg struct {
	f   *fleetread.Fleet
	err error
}

// fleetKeyMap is the fleet view's keys.
type fleetKeyMap struct {
	widget.ScrollKeys
	Open, Sort, Filter, Refresh, Help, Quit key.Binding
}

// ShortHelp is the footer's help. help.KeyMap.
func (k fleetKeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Open, k.Filter, k.Sort, k.Refresh, k.Help, k.Quit}
}

// FullHelp is every binding of the view. help.KeyMap.
func (k fleetKeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Up, k.Down, k.PageUp, k.PageDown, k.Home, k.End}, {k.Open, k.Filter, k.Sort}, {k.Refresh, k.Help, k.Quit}}
}

// Fleet is the fleet view's model.
type Fleet struct {
	C    *Common
	opts FleetOptions
	keys fleetKeyMap

	last    *fleetread.Fleet // the last read that answered; kept when one fails
	rows    []fleetread.Row  // last's rows, filtered and sorted
	err     error            // the last read's failure, nil once one answers
	reading bool
	sentAt  time.Time
	cursor  int
	offset  int
	sort    string
	typing  bool   // the filter line is being typed (fleetfilter.go)
	before  string // the filter before typing began, for esc
}

// NewFleet is the fleet view over opts; Refresh is its first read.
func NewFleet(c *Common, opts FleetOptions) Fleet {
	k := c.Keys
	open := key.NewBinding(key.WithKeys(k.Open.Keys()...), key.WithHelp("enter", "attach (top)"))
	sort := key.NewBinding(key.WithKeys(k.Sort.Keys()...), key.WithHelp(k.Sort.Help().Key, "sort"))
	s := opts.Sort
	if s == "" {
		s = fleetread.SortWorst
	}
	return Fleet{C: c, opts: opts, sort: s,
		keys: fleetKeyMap{ScrollKeys: rowKeys(&k, "controller"), Open: open, Sort: sort, Filter: k.Filter, Refresh: k.Refresh, Help: k.Help, Quit: k.Quit}}
}

// Refresh sends a read, unless one is under way.
func (v Fleet) Refresh() (Fleet, tea.Cmd) {
	if v.reading {
		return v, nil
	}
	v.reading, v.sentAt = true, v.C.Now()
	ctx, read := v.C.Conn.Ctx, v.opts.Read
	return v, v.C.Stamp(func() tea.Msg {
		ctx, cancel := context.WithTimeout(ctx, fleetReadTimeout)
		defer cancel()
		f, err := read(ctx)
		return FleetReadMsg{f: f, err: err}
	})
}

// received takes a read in: a failure keeps the last read.
func (v Fleet) received(m FleetReadMsg) Fleet {
	v.reading = false
	if m.err != nil {
		v.err = m.err
		return v
	}
	v.err, v.last = nil, m.f
	v.apply()
	return v
}

// apply filters and sorts the last read's rows, keeping the cursor on
// the same controller where it still is.
func (v *Fleet) apply() {
	var at string
	if v.cursor < len(v.rows) {
		at = v.rows[v.cursor].ID()
	}
	v.rows = fleetread.Filter(v.last.Rows, v.opts.Filter, v.opts.Clusters)
	fleetread.Sort(v.rows, v.sort)
	v.cursor = min(v.cursor, max(0, len(v.rows)-1))
	for i := range v.rows {
		if v.rows[i].ID() == at {
			v.cursor = i
		}
	}
}

// update handles a key.
func (v Fleet) update(msg tea.KeyPressMsg) (Fleet, tea.Cmd, Intent) {
	switch {
	case key.Matches(msg, v.keys.Up), key.Matches(msg, v.keys.Down), key.Matches(msg, v.keys.PageUp),
		key.Matches(msg, v.keys.PageDown), key.Matches(msg, v.keys.Home), key.Matches(msg, v.keys.End):
		widget.ScrollBy(v.keys.ScrollKeys, msg, &v.cursor, 10, len(v.rows))
		v.cursor = min(max(0, len(v.rows)-1), max(0, v.cursor))
	case key.Matches(msg, v.keys.Sort):
		i := 0
		for j, s := range fleetread.Sorts {
			if s == v.sort {
				i = j
			}
		}
		v.sort = fleetread.Sorts[(i+1)%len(fleetread.Sorts)]
		if v.last != nil {
			v.apply()
		}
		return v, nil, NoteIntent{Text: "sorted by " + v.sort}
	case key.Matches(msg, v.keys.Open):
		return v.open()
	case key.Matches(msg, v.keys.Filter):
		return v.startFilter()
	}
	return v, nil, nil
}

// open attaches to the selected row's controller through its cluster's
// context, or shows the command to run when no context is known.
func (v Fleet) open() (Fleet, tea.Cmd, Intent) {
	if v.cursor >= len(v.rows) {
		return v, nil, nil
	}
	r := v.rows[v.cursor]
	if ctx, ok := v.contextFor(r.Cluster); ok && v.opts.Attach != nil {
		v.opts.Attach(r, ctx)
		return v, tea.Quit, nil
	}
	mapIt := explain.Flag{Name: "context-map", Value: explain.ShellQuote(orDash(r.Cluster) + "=CONTEXT")}
	note := "no kube context for cluster " + orDash(r.Cluster) + " (" + mapIt.String() + "); run: " + topCommand(r, "CONTEXT")
	return v, nil, NoteIntent{Text: text.Printable(note)}
}

func (v Fleet) contextFor(cluster string) (string, bool) {
	if v.opts.ContextFor == nil {
		return "", false
	}
	return v.opts.ContextFor(cluster)
}

// topCommand is the command that attaches to r's controller through
// kubeContext: what enter runs, or says to run. Its flags are data that
// explain.Command spells, as every suggested command's are.
func topCommand(r fleetread.Row, kubeContext string) string {
	flags := []explain.Flag{{Name: "context", Value: explain.ShellQuote(kubeContext)}}
	if r.Namespace != "" {
		flags = append(flags, explain.Flag{Name: "n", Value: explain.ShellQuote(r.Namespace)})
	}
	flags = append(flags, explain.Flag{Name: "controller", Value: explain.ShellQuote(r.Controller)})
	return explain.Command{Verb: "top", Flags: flags}.Render(explain.Session{})
}

// view draws the header, the rows and the selected row's worst keys.
func (v Fleet) view() string {
	s := v.C.Styles
	w := v.C.Width
	var out []string
	switch {
	case v.last == nil && v.err == nil:
		out = append(out, widget.Fit("fleet · reading Prometheus…", w))
	case v.last != nil:
		f := v.last
		// The counts first: a narrow screen cuts the server's URL.
		out = append(out, widget.Fit(text.Printable(fmt.Sprintf("fleet: %s, %s answered · as of %s · %s · %s",
			text.Plural(len(v.rows), "controller"), text.Plural(len(f.Clusters), "cluster"),
			f.At.Local().Format(time.TimeOnly), text.Plural(f.Queries, "query"), f.Server)), w))
	default:
		out = append(out, widget.Fit("fleet · no read has answered yet", w))
	}
	if v.err != nil {
		msg := "⚠ " + text.OneLine(text.Printable(v.err.Error()), 0)
		if v.last != nil {
			msg += " — showing the read of " + v.last.At.Local().Format(time.TimeOnly)
		}
		out = append(out, s.Bad.Render(widget.Fit(msg, w)))
	} else if v.last != nil && len(v.last.Warnings) > 0 {
		out = append(out, s.Warn.Render(widget.Fit("partial: "+text.OneLine(text.Printable(v.last.Warnings[0]), 0), w)))
	}
	if l := v.filterLine(); l != "" {
		out = append(out, widget.Fit(text.Printable(l), w))
	}
	out = append(out, s.Header.Render(widget.Fit(widget.SelectedMark(false)+fleetLine("CLUSTER", "NAMESPACE", "CONTROLLER", "FAILING", "OLDEST", "MOST FAILS", "AT MAX", "FORGETS", w-2), w)))
	room := v.C.bodyHeight() - len(out)
	lines := v.rowLines(room)
	if v.err != nil {
		for i := range lines {
			lines[i] = s.Dim.Render(lines[i]) // stale: the last read's
		}
	}
	out = append(out, lines...)
	return strings.Join(out, "\n")
}

// rowLines are the rows that fit room lines, the selected one's worst
// keys under it, scrolled to keep the cursor in view.
func (v *Fleet) rowLines(room int) []string {
	w, s := v.C.Width, v.C.Styles
	if len(v.rows) == 0 {
		if v.last != nil {
			if len(v.last.Rows) > 0 {
				return []string{widget.Fit("no controller passes the filter", w)}
			}
			return []string{widget.Fit("no instrumented controller in this Prometheus (kubectl_backoff_* series)", w)}
		}
		return nil
	}
	worst, delays := 0, 0
	if v.cursor < len(v.rows) {
		worst = min(fleetWorstShown, len(v.rows[v.cursor].WorstKeys))
		if v.rows[v.cursor].RetryDelays != nil {
			delays = 1
		}
	}
	fit := max(1, room-worst-delays)
	if v.cursor < v.offset {
		v.offset = v.cursor
	}
	if v.cursor >= v.offset+fit {
		v.offset = v.cursor - fit + 1
	}
	var out []string
	for i := v.offset; i < len(v.rows) && len(out) < room; i++ {
		r := &v.rows[i]
		l := widget.Fit(widget.SelectedMark(i == v.cursor)+fleetRowLine(r, w-2), w)
		if i == v.cursor {
			l = s.Selected.Render(l)
		}
		out = append(out, l)
		if i != v.cursor {
			continue
		}
		if d := r.RetryDelays; d != nil {
			out = append(out, s.Dim.Render(widget.Fit(retryDelaysLine(d), w)))
		}
		for _, k := range r.WorstKeys[:worst] {
			retry := "-"
			if k.RetryInSeconds > 0 {
				retry = "retry in " + text.FormatDuration(time.Duration(k.RetryInSeconds*float64(time.Second)))
			}
			out = append(out, s.Dim.Render(widget.Fit(text.Printable(fmt.Sprintf("   ↳ %s  %s  %d failures  %s", k.Key, k.State, k.Failures, retry)), w)))
		}
	}
	return out
}

// retryDelaysLine is a row's detail of the delays its rate limiter chose in the
// last hour (kubectl_backoff_rate_limiter_delay_seconds): chosen, not waited
// (a retry sooner than its delay, or one not yet due, is counted the same).
func retryDelaysLine(d *fleetread.RetryDelays) string {
	return fmt.Sprintf("   delays chosen in the last hour: %d, mean %s, %d over %s", d.Retries, seconds(d.MeanSeconds), d.Long, seconds(longDelay))
}

// longDelay is fleet.LongDelayBound in seconds.
var longDelay, _ = strconv.ParseFloat(fleetread.LongDelayBound, 64)

// seconds is a Prometheus value in seconds as a duration.
func seconds(v float64) string {
	return text.FormatDuration(time.Duration(v * float64(time.Second)))
}

// fleetRowLine is one row's cells in the table's columns.
func fleetRowLine(r *fleetread.Row, w int) string {
	atCap := "-"
	if r.KeysAtCap != nil {
		atCap = strconv.Itoa(*r.KeysAtCap)
	}
	oldest := "-"
	if r.OldestFailureSeconds > 0 {
		oldest = text.FormatDuration(time.Duration(r.OldestFailureSeconds * float64(time.Second)))
	}
	// Escaped before the columns are measured: the names are the server's.
	p := text.Printable
	return fleetLine(p(orDash(r.Cluster)), p(orDash(r.Namespace)), p(r.Controller), fmt.Sprintf("%d/%d", r.Failing(), r.Total()),
		oldest, strconv.Itoa(r.MaxFailures), atCap, strconv.Itoa(r.ForgetsLastDay), w)
}

// fleetLine lays out the columns: the names share what the numbers leave.
func fleetLine(cluster, ns, ctrl, failing, oldest, streak, atCap, forgets string, w int) string {
	nums := fmt.Sprintf(" %9s %8s %10s %6s %7s", failing, oldest, streak, atCap, forgets) // ASCII: len is its width
	names := max(12, w-len(nums))
	cw, nw := names/4, names/4
	return fmt.Sprintf("%-*s %-*s %-*s", cw-1, cut(cluster, cw-1), nw-1, cut(ns, nw-1), names-cw-nw-1, cut(ctrl, names-cw-nw-1)) + nums
}

// cut shortens s to n runes.
func cut(s string, n int) string {
	if r := []rune(s); len(r) > n {
		if n <= 1 {
			return string(r[:max(n, 0)])
		}
		return string(r[:n-1]) + "…"
	}
	return s
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// The view's adapters (View, Receiver).

// OnKey handles a key. View.
func (v Fleet) OnKey(msg tea.KeyPressMsg) (View, tea.Cmd, Intent) { return v.update(msg) }

// Render draws the view. View.
func (v Fleet) Render() string { return v.view() }

// HintKeys is the view's key map. View.
func (v Fleet) HintKeys() help.KeyMap { return v.keys }

// Stale reports whether the next read is due. View.
func (v Fleet) Stale() bool { return v.C.Due(v.reading, v.sentAt) }

// Reload reads again. View.
func (v Fleet) Reload() (View, tea.Cmd) { return v.Refresh() }

// ReloadNow reads again now. View.
func (v Fleet) ReloadNow() (View, tea.Cmd) { return v.Refresh() }

// Resize lays nothing out: each line is fitted as it is drawn. View.
func (v Fleet) Resize() (View, tea.Cmd) { return v, nil }

// Receive takes a read in. Receiver.
func (v Fleet) Receive(msg tea.Msg) (View, tea.Cmd, Intent, bool) {
	switch m := msg.(type) {
	case FleetReadMsg:
		return v.received(m), nil, nil, true
	case DroppedMsg:
		if _, ok := m.Msg.(FleetReadMsg); ok {
			v.reading = false
			return v, nil, nil, true
		}
	}
	return v, nil, nil, false
}
