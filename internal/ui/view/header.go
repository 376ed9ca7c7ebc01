package view

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"charm.land/lipgloss/v2"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/cluster"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/widget"
)

// header renders the lines above the table: headerHeight of them, and
// while a filter is typed, why what is typed is not applied.
func (t *Top) header() []string {
	w := t.C.Width
	lines := []string{widget.Fit(t.attachedLine(), w)}
	for _, l := range t.fleetLines() {
		lines = append(lines, widget.Fit(l, w))
	}
	lines = append(lines, widget.Fit(t.CountsLine(), w))
	for _, l := range t.DiagnosisLines() {
		lines = append(lines, widget.Fit(l, w))
	}
	lines = append(lines,
		widget.Fit(t.LimiterLine(), w),
		widget.Fit(t.forecastLine(), w),
	)
	if t.Filter.Typing() {
		return append(lines, t.Filter.View(&t.C.Styles, w)...)
	}
	return append(lines, widget.Fit(t.QueryLine(), w))
}

// attachedLine says what is attached and how the connection stands.
func (t *Top) attachedLine() string {
	s := &t.C.Styles
	parts := []string{s.Title.Render("backoff top")}
	if t.C.Paused {
		// Right after the title: a narrow screen cuts the line's end, and
		// "updated 4.0s ago" must not read as live (issue #23).
		parts = append(parts, s.Warn.Render("⏸ PAUSED"))
	}
	if at := t.C.SnapshotAt(); !at.IsZero() {
		// First, so that 80 columns show it: nothing below is live.
		parts = append(parts, s.Warn.Render("snapshot taken at "+text.Timestamp(at)))
	}
	ended := t.C.LogEnds()
	if !ended.IsZero() {
		// A saved log is judged as of its last line, as a snapshot is as of
		// its taking: first, for the same reason, and how long ago it was,
		// since its countdowns do not move.
		parts = append(parts, s.Warn.Render(widget.LogEndsText(ended, t.C.Now())))
	}
	// The context and namespace are what a narrow line gives up first (the
	// user chose them; the connection and its age are news): ctx, then ns.
	ctx, ns := -1, -1
	if t.C.Opts.Context != "" {
		ctx = len(parts)
		parts = append(parts, s.Label.Render("ctx ")+t.C.Opts.Context)
	}
	if t.C.Conn.Namespace != "" {
		ns = len(parts)
		parts = append(parts, s.Label.Render("ns ")+t.C.Conn.Namespace)
	}
	replicaErr := false
	if t.Overview != nil {
		for _, r := range t.Overview.Replicas {
			if !t.fleet() {
				parts = append(parts, t.replica(r))
			}
			replicaErr = replicaErr || r.Err != nil
			if r.Source != nil && r.Source.Read != nil {
				parts = append(parts, widget.LogReadPart(&t.C.Styles, r.Source.Read))
			}
		}
		if t.fleet() {
			parts = append(parts, t.fleetSummary()) // each pod out of reach has a row below
		}
	}
	switch {
	case t.Err != nil && !replicaErr:
		parts = append(parts, s.Bad.Render("✗ not answering (below)"))
	case t.Err != nil, t.C.Snapshot(), !ended.IsZero():
	case !t.fetchedAt.IsZero():
		parts = append(parts, s.Dim.Render("updated "+text.Ago(t.fetchedAt, t.C.Now())))
	default:
		parts = append(parts, s.Dim.Render("connecting…"))
	}
	sep := s.Dim.Render(" · ")
	for _, drop := range []int{ctx, ns} {
		if drop < 0 || lipgloss.Width(strings.Join(parts, sep)) <= t.C.Width {
			continue
		}
		parts[drop] = ""
	}
	return strings.Join(slices.DeleteFunc(parts, func(p string) bool { return p == "" }), sep)
}

// replica is one endpoint: its pod, leader or standby, and its connection.
func (t *Top) replica(r inspector.Replica) string {
	if r.Source.Logged() {
		return text.Printable(r.Endpoint) // a log (v1/controllers says what it read): nothing is connected, no leader to tell
	}
	s := &t.C.Styles
	role := "leader "
	switch {
	case r.Standby:
		role = "standby "
	case r.ServerTime.IsZero():
		role = "" // never answered: no role to tell
	}
	out := text.Printable(r.Endpoint) + " " + s.Label.Render(role) // a pod name is the cluster's text
	c := r.Conn
	switch c.Phase {
	case cluster.PhaseConnected, "":
		if t.C.Snapshot() && r.Err == nil {
			return out + s.Dim.Render("(recorded)") // nothing is connected to a file
		}
		if r.Err != nil && !widget.TimedOut(r.Err) {
			// A direct address has no tunnel: the UI itself retries every refresh.
			return out + s.Warn.Render("◌ reconnecting: "+widget.ErrText(r.Err))
		}
		if t.silent() || r.Err != nil {
			// Silent, or its reads time out: the same outage, counted from
			// its first unanswered read. The last answer stays below, dimmed.
			return out + s.Bad.Render("✗ not answering since "+text.TimeOfDay(t.quietSince))
		}
		return out + s.OK.Render("● connected")
	case cluster.PhaseConnecting, cluster.PhaseReconnecting:
		st := "◌ " + string(c.Phase)
		if !c.RetryAt.IsZero() {
			st += " in " + text.Countdown(c.RetryAt, t.C.Now())
		}
		if c.LastError != "" {
			st += ": " + text.OneLine(c.LastError, 0)
		}
		return out + s.Warn.Render(st)
	default:
		return out + s.Bad.Render("✗ "+string(c.Phase)+": "+text.OneLine(c.LastError, 0))
	}
}

// shown is the controllers the view covers: the selected one, or all.
func (t *TopModel) shown() []api.Controller {
	if t.Overview == nil {
		return nil
	}
	if t.Controller == "" {
		return t.Overview.Controllers
	}
	if c := t.Overview.Controller(t.Controller); c != nil {
		return []api.Controller{*c}
	}
	return nil
}

// CountsLine counts keys by state; each state's number is its toggle key.
// A log's keys may be unknown too (its seventh toggle): with it the counts
// add up to the tracked keys.
func (t *Top) CountsLine() string {
	s := &t.C.Styles
	counts := map[api.State]int{}
	total := 0
	for _, c := range t.shown() {
		for st, n := range c.Counts {
			counts[st] += n
		}
		total += c.Keys
	}
	// The roomiest layout that fits: narrow terminals get tighter spacing,
	// then compact numbers (12.9k), then short state names, then only the
	// states that have keys or are toggled on (a log's seven do not fit 60
	// columns; the help still lists every toggle), then without the toggle
	// keys' numbers, which the help lists too: a count is never cut in
	// its middle ("6 …"). Widths are of the plain text; only the layout
	// chosen is styled.
	layouts := []struct {
		gap      string
		num      func(int) string
		names    map[api.State]string
		nonEmpty bool
		noDigits bool
	}{
		{"   ", text.Thousands, nil, false, false}, {"  ", text.Thousands, nil, false, false},
		{" ", text.Thousands, nil, false, false}, {" ", widget.Compact, nil, false, false},
		{" ", widget.Compact, ShortStates, false, false},
		{" ", widget.Compact, nil, true, false}, {" ", widget.Compact, ShortStates, true, false},
		{" ", widget.Compact, ShortStates, true, true},
	}
	toggles := t.C.ToggleStates()
	labels := make([]string, 0, len(toggles))
	for li, layout := range layouts {
		labels = labels[:0]
		var shown []api.State
		width := 0
		for i, st := range toggles {
			if layout.nonEmpty && counts[st] == 0 && !t.states[st] {
				continue
			}
			label := fmt.Sprintf("%s %s", cmp.Or(layout.names[st], string(st)), layout.num(counts[st]))
			if !layout.noDigits {
				label = strconv.Itoa(i+1) + " " + label
			}
			labels, shown = append(labels, label), append(shown, st)
			width += len([]rune(label)) + len(layout.gap)
			if t.states[st] {
				width += 2 // the brackets of a state toggled on
			}
		}
		keys := layout.gap + "keys " + layout.num(total)
		withTotal := width-len(layout.gap)+len(keys) <= t.C.Width
		if !withTotal && width-len(layout.gap) > t.C.Width && li < len(layouts)-1 {
			continue
		}
		parts := make([]string, len(labels))
		for i, st := range shown {
			if t.states[st] {
				parts[i] = s.ToggleOn.Render("[" + labels[i] + "]")
			} else {
				parts[i] = s.StateStyle(st).Render(labels[i])
			}
		}
		line := strings.Join(parts, layout.gap)
		if withTotal {
			line += layout.gap + s.Label.Render("keys ") + layout.num(total)
		}
		return line
	}
	return ""
}

// ShortStates are the state names of the narrowest counts line.
var ShortStates = map[api.State]string{api.StateScheduled: "sched", api.StateRunning: "run", api.StateUnknown: "unkn"}

// QueryLine shows the position, controller, sort, states, the filter as
// typed and a drill-down's error group. When it does not fit, what the user
// chose to see (states, filter, group) keeps its room: the sort goes first,
// then an "all" controller, then the tracked count and the controller (the
// header names it); the group, last, is what the width then cuts.
func (t *Top) QueryLine() string {
	s := &t.C.Styles
	var pos, bare string // the position with and without the tracked count
	if t.Page != nil {
		from := t.Offset + 1
		to := t.Offset + t.ShownRows()
		if to == 0 {
			from = 0
		}
		bare = fmt.Sprintf("%s–%s of %s matched", text.Thousands(from), text.Thousands(to), text.Thousands(t.Page.Matched))
		pos = bare + fmt.Sprintf(" (%s tracked)", text.Thousands(t.Page.Total))
	}
	var chosen []string
	if st := t.StateList(); len(st) > 0 {
		names := make([]string, len(st))
		for i, x := range st {
			names[i] = string(x)
		}
		chosen = append(chosen, s.Label.Render("states ")+strings.Join(names, ","))
	}
	if t.Filter.Applied != "" {
		chosen = append(chosen, s.Label.Render("filter ")+s.Bold.Render(t.Filter.Applied))
	}
	if t.Group.Pattern != "" {
		chosen = append(chosen, s.Label.Render("error ")+s.Bold.Render(text.OneLine(t.Group.Fingerprint, 0)))
	}
	line := func(pos string, ctl, sort bool) string {
		var parts []string
		if pos != "" {
			parts = append(parts, pos)
		}
		if ctl {
			parts = append(parts, s.Label.Render("controller ")+cmp.Or(text.Printable(t.Controller), "all"))
		}
		if sort {
			parts = append(parts, s.Label.Render("sort ")+Sorts[t.Sort])
		}
		return strings.Join(append(parts, chosen...), s.Dim.Render(" · "))
	}
	for _, l := range []string{line(pos, true, true), line(pos, true, false), line(pos, t.Controller != "", false)} {
		if lipgloss.Width(l) <= t.C.Width {
			return l
		}
	}
	return line(bare, false, false)
}

// LimiterLine is the header's limiters line for the controllers shown.
func (t *Top) LimiterLine() string {
	return widget.LimiterLine(&t.C.Styles, t.shown(), t.C.Width, t.C.Now())
}

// forecastLine is the header's forecast line: the keys of the controllers
// shown falling due over the next 60s.
func (t *Top) forecastLine() string {
	var now time.Time
	if t.Overview != nil {
		now = t.C.ServerNow(t.Overview.ServerTime, t.fetchedAt)
	}
	return widget.ForecastLine(&t.C.Styles, t.Overview, t.Controller, now, t.C.Width)
}
