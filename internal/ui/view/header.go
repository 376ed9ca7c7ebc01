package view

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/widget"
)

// TopHeader draws the lines above the table: what is attached and how it
// answers (a fleet's pods counted, each out of reach a row), the counts,
// the diagnosis (diagnosis.go), the limiters, the forecast and the query
// line, or the filter line being typed. It is a function of what it is
// handed, the k9s way: the read model's answer and query, the view's
// filter, group and rows drawn, and whether the view spans a fleet; it
// reads no view and changes nothing.
type TopHeader struct {
	C *Common
	// M is the read model: the last answer, and the query it answers.
	M *TopModel
	// Filter is the view's filter line: applied, or being typed.
	Filter *widget.Filter
	// Group is the error group a drill-down shows ("" pattern: none).
	Group ErrorGroup
	// Shown is how many rows the table draws, for the query line's
	// position (Top.ShownRows); Height does not read it, since the rows
	// that fit are counted from the header's height.
	Shown int
	// Fleet says the view spans several workloads (TopModel.fleet): their
	// pods are counted on the attached line, and each out of reach has a
	// row under it.
	Fleet bool
	// CapNote says that discovery found more pods than were attached to;
	// "" when it did not.
	CapNote string
}

// HeaderLines is how many lines the header above the table takes, but for
// a fleet's rows and a diagnosis that wraps (TopHeader.Height).
const HeaderLines = 6

// MaxUnreachableRows bounds the header rows naming pods out of reach; the
// rest are counted on the last.
const MaxUnreachableRows = 3

// Lines renders the lines above the table: Height of them, and while a
// filter is typed, why what is typed is not applied.
func (h TopHeader) Lines() []string {
	w := h.C.Width
	lines := []string{widget.Fit(h.attachedLine(), w)}
	for _, l := range h.fleetLines() {
		lines = append(lines, widget.Fit(l, w))
	}
	lines = append(lines, widget.Fit(h.CountsLine(), w))
	for _, l := range h.DiagnosisLines() {
		lines = append(lines, widget.Fit(l, w))
	}
	lines = append(lines,
		widget.Fit(h.LimiterLine(), w),
		widget.Fit(h.forecastLine(), w),
	)
	if h.Filter.Typing() {
		return append(lines, h.Filter.View(&h.C.Styles, w)...)
	}
	return append(lines, widget.Fit(h.QueryLine(), w))
}

// Height is how many lines the header takes, but for a filter's reason
// while one is typed: the fixed ones, a fleet's rows, and the diagnosis's
// second line when it wraps.
func (h TopHeader) Height() int {
	return HeaderLines + len(h.fleetLines()) + len(h.DiagnosisLines()) - 1
}

// fleetSummary is the attached line's account of a fleet: how many pods in
// how many workloads, leading, standby and out of reach.
func (h TopHeader) fleetSummary() string {
	s := &h.C.Styles
	reps := h.M.Overview.Replicas
	var leading, standby, down int
	for _, r := range reps {
		switch {
		case r.Err != nil:
			down++
		case r.Standby:
			standby++
		case !r.ServerTime.IsZero():
			leading++
		}
	}
	out := fmt.Sprintf("workloads %d · pods %d: ", workloads(reps), len(reps)) + s.OK.Render(fmt.Sprintf("%d leading", leading))
	if standby > 0 {
		out += s.Dim.Render(fmt.Sprintf(", %d standby", standby))
	}
	if down > 0 {
		out += s.Bad.Render(fmt.Sprintf(", %d unreachable", down))
	}
	return out
}

// fleetLines are the header rows under the attached line: the cap on the
// pods attached to, when discovery found more, and one row per pod out of
// reach (name, why), at most MaxUnreachableRows.
func (h TopHeader) fleetLines() []string {
	if !h.Fleet {
		return nil
	}
	s := &h.C.Styles
	var lines []string
	if h.CapNote != "" {
		lines = append(lines, s.Warn.Render("⚠ "+h.CapNote))
	}
	if h.M.Overview == nil {
		return lines
	}
	var down []inspector.Replica
	for _, r := range h.M.Overview.Replicas {
		if r.Err != nil {
			down = append(down, r)
		}
	}
	for i, r := range down {
		if i == MaxUnreachableRows-1 && len(down) > MaxUnreachableRows {
			lines = append(lines, s.Bad.Render(fmt.Sprintf("  ✗ %d more pods unreachable", len(down)-i)))
			break
		}
		lines = append(lines, "  "+h.replica(r)) // its state says why, marked
	}
	return lines
}

// attachedLine says what is attached and how the connection stands.
func (h TopHeader) attachedLine() string {
	s := &h.C.Styles
	parts := []string{s.Title.Render("backoff top")}
	if h.C.Paused {
		// Right after the title: a narrow screen cuts the line's end, and
		// "updated 4.0s ago" must not read as live (issue #23).
		parts = append(parts, s.Warn.Render("⏸ PAUSED"))
	}
	if at := h.C.SnapshotAt(); !at.IsZero() {
		// First, so that 80 columns show it: nothing below is live.
		parts = append(parts, s.Warn.Render("snapshot taken at "+text.Timestamp(at)))
	}
	ended, logs := h.C.LogEnds(), logFit{name: -1, ends: -1}
	if !ended.IsZero() {
		logs.ends, logs.endsShort = len(parts), s.Warn.Render(widget.LogEndedAgo(ended, h.C.Now()))
		// A saved log is judged as of its last line, as a snapshot is as of
		// its taking: first, for the same reason, and how long ago it was,
		// since its countdowns do not move.
		parts = append(parts, s.Warn.Render(widget.LogEndsText(ended, h.C.Now())))
		if h.C.LogStale() && h.C.Width >= 100 {
			// Its NEXT reads "+15s", not a countdown: said beside its end.
			// Under 100 columns the log's name needs the room: the "+" and
			// the forecast's "due 60s after log end" say it there.
			parts = append(parts, s.Warn.Render(widget.AfterLogEnd))
		}
	}
	// The context and namespace are what a narrow line gives up first (the
	// user chose them; the connection and its age are news): ctx, then ns.
	ctx, ns := -1, -1
	if h.C.Opts.Context != "" {
		ctx = len(parts)
		parts = append(parts, s.Label.Render("ctx ")+h.C.Opts.Context)
	}
	if h.C.Conn.Namespace != "" {
		ns = len(parts)
		parts = append(parts, s.Label.Render("ns ")+h.C.Conn.Namespace)
	}
	replicaErr := false
	if h.M.Overview != nil {
		for _, r := range h.M.Overview.Replicas {
			if !h.Fleet {
				logs.name = logNameAt(logs.name, len(parts), r)
				parts = append(parts, h.replica(r))
			}
			replicaErr = replicaErr || r.Err != nil
			if r.Source != nil && r.Source.Read != nil {
				parts = append(parts, widget.LogReadPart(&h.C.Styles, r.Source.Read))
			}
		}
		if h.Fleet {
			parts = append(parts, h.fleetSummary()) // each pod out of reach has a row below
		}
	}
	switch {
	case h.M.Err != nil && !replicaErr:
		parts = append(parts, s.Bad.Render("✗ not answering (below)"))
	case h.M.Err != nil, h.C.Snapshot(), !ended.IsZero():
	case !h.M.fetchedAt.IsZero():
		parts = append(parts, s.Dim.Render("updated "+text.Ago(h.M.fetchedAt, h.C.Now())))
	default:
		parts = append(parts, s.Dim.Render("connecting…"))
	}
	sep := s.Dim.Render(" · ")
	for _, drop := range []int{ctx, ns} {
		if drop < 0 || lipgloss.Width(strings.Join(parts, sep)) <= h.C.Width {
			continue
		}
		parts[drop] = ""
	}
	fitLogName(parts, logs, sep, h.C.Width)
	return strings.Join(slices.DeleteFunc(parts, func(p string) bool { return p == "" }), sep)
}

// replica is one endpoint: its pod, leader or standby, and its connection.
func (h TopHeader) replica(r inspector.Replica) string {
	if r.Source.Logged() {
		return text.Printable(r.Endpoint) // a log (v1/controllers says what it read): nothing is connected, no leader to tell
	}
	s := &h.C.Styles
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
	case inspector.PhaseConnected, "":
		if h.C.Snapshot() && r.Err == nil {
			return out + s.Dim.Render("(recorded)") // nothing is connected to a file
		}
		if r.Err != nil && !widget.TimedOut(r.Err) {
			// A direct address has no tunnel: the UI itself retries every refresh.
			return out + s.Warn.Render("◌ reconnecting: "+widget.ErrText(r.Err))
		}
		if h.M.silent() || r.Err != nil {
			// Silent, or its reads time out: the same outage, counted from
			// its first unanswered read. The last answer stays below, dimmed.
			return out + s.Bad.Render("✗ not answering since "+text.TimeOfDay(h.M.quietSince))
		}
		return out + s.OK.Render("● connected")
	case inspector.PhaseConnecting, inspector.PhaseReconnecting:
		st := "◌ " + string(c.Phase)
		if c.RetryAt.After(h.C.Now()) { // a retry time past (read before a hung read) is under way: not "in due"
			st += " in " + text.Countdown(c.RetryAt, h.C.Now())
		}
		if c.LastError != "" {
			st += ": " + text.OneLine(c.LastError, 0)
		}
		return out + s.Warn.Render(st)
	default:
		return out + s.Bad.Render("✗ "+string(c.Phase)+": "+text.OneLine(c.LastError, 0))
	}
}

// CountsLine counts keys by state; each state's number is its toggle key.
// A log's keys may be unknown too (its seventh toggle): with it the counts
// add up to the tracked keys.
func (h TopHeader) CountsLine() string {
	s := &h.C.Styles
	counts := map[api.State]int{}
	total := 0
	for _, c := range h.M.shown() {
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
	// its middle ("6 …"). A state's toggle key follows the count before it
	// two spaces away, never one: "backoff 2 2 scheduled 0" read as a
	// state with two counts (a log's seven states at 80 columns). Widths
	// are of the plain text; only the layout chosen is styled.
	layouts := []struct {
		gap      string
		num      func(int) string
		names    map[api.State]string
		nonEmpty bool
		noDigits bool
	}{
		{"   ", text.Thousands, nil, false, false}, {"  ", text.Thousands, nil, false, false},
		{"  ", widget.Compact, nil, false, false}, {"  ", widget.Compact, ShortStates, false, false},
		{"  ", widget.Compact, nil, true, false}, {"  ", widget.Compact, ShortStates, true, false},
		{" ", widget.Compact, ShortStates, true, true},
	}
	toggles := h.C.ToggleStates()
	labels := make([]string, 0, len(toggles))
	for li, layout := range layouts {
		labels = labels[:0]
		var shown []api.State
		width := 0
		for i, st := range toggles {
			if layout.nonEmpty && counts[st] == 0 && !h.M.states[st] {
				continue
			}
			label := fmt.Sprintf("%s %s", cmp.Or(layout.names[st], string(st)), layout.num(counts[st]))
			if !layout.noDigits {
				label = strconv.Itoa(i+1) + " " + label
			}
			labels, shown = append(labels, label), append(shown, st)
			width += len([]rune(label)) + len(layout.gap)
			if h.M.states[st] {
				width += 2 // the brackets of a state toggled on
			}
		}
		keys := layout.gap + "keys " + layout.num(total)
		withTotal := width-len(layout.gap)+len(keys) <= h.C.Width
		if !withTotal && width-len(layout.gap) > h.C.Width && li < len(layouts)-1 {
			continue
		}
		parts := make([]string, len(labels))
		for i, st := range shown {
			if h.M.states[st] {
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
func (h TopHeader) QueryLine() string {
	s := &h.C.Styles
	var pos, bare string // the position with and without the tracked count
	if h.M.Page != nil {
		from := h.M.Offset + 1
		to := h.M.Offset + h.Shown
		if to == 0 {
			from = 0
		}
		bare = fmt.Sprintf("%s–%s of %s matched", text.Thousands(from), text.Thousands(to), text.Thousands(h.M.Page.Matched))
		pos = bare + fmt.Sprintf(" (%s tracked)", text.Thousands(h.M.Page.Total))
	}
	var chosen []string
	if st := h.M.StateList(); len(st) > 0 {
		names := make([]string, len(st))
		for i, x := range st {
			names[i] = string(x)
		}
		chosen = append(chosen, s.Label.Render("states ")+strings.Join(names, ","))
	}
	if h.Filter.Applied != "" {
		chosen = append(chosen, s.Label.Render("filter ")+s.Bold.Render(h.Filter.Applied))
	}
	if h.Group.Pattern != "" {
		chosen = append(chosen, s.Label.Render("error ")+s.Bold.Render(text.OneLine(h.Group.Fingerprint, 0)))
	}
	line := func(pos string, ctl, sort bool) string {
		var parts []string
		if pos != "" {
			parts = append(parts, pos)
		}
		if ctl {
			parts = append(parts, s.Label.Render("controller ")+cmp.Or(text.Cell(h.M.Controller, 0), "all"))
		}
		if sort {
			parts = append(parts, s.Label.Render("sort ")+Sorts[h.M.Sort])
		}
		return strings.Join(append(parts, chosen...), s.Dim.Render(" · "))
	}
	for _, l := range []string{line(pos, true, true), line(pos, true, false), line(pos, h.M.Controller != "", false)} {
		if lipgloss.Width(l) <= h.C.Width {
			return l
		}
	}
	return line(bare, false, false)
}

// LimiterLine is the header's limiters line for the controllers shown.
func (h TopHeader) LimiterLine() string {
	if h.M.Overview != nil && len(h.M.shown()) == 0 {
		return h.C.Styles.Label.Render("limiters ") + h.C.Styles.Dim.Render("none yet")
	}
	return widget.LimiterLine(&h.C.Styles, h.M.shown(), h.C.Width, h.C.Now())
}
