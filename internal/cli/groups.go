package cli

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// validateGroupBy checks --group-by and what goes with it: the server
// groups by controller and state only, so KEYs and -q do not apply, and
// groups come largest first, so --sort does not either.
func (o *GetOptions) validateGroupBy() error {
	switch {
	case o.GroupBy == "":
		return nil
	case !slices.Contains(groupBys, o.GroupBy):
		return fmt.Errorf("--group-by %q: use %s", o.GroupBy, strings.Join(groupBys, ", "))
	case len(o.keys) > 0:
		return fmt.Errorf("--group-by %s groups every key: drop the KEYs, or drop --group-by to list them", o.GroupBy)
	case o.Filter != "":
		return fmt.Errorf("--group-by %s groups by --controller and --state: drop -q/--filter", o.GroupBy)
	case o.Sort != "":
		return fmt.Errorf("--group-by %s lists the largest group first: drop --sort (--limit keeps the largest groups)", o.GroupBy)
	case o.output.format() == "name":
		return fmt.Errorf("--output name: error groups have no names; use -o json, yaml or jsonpath")
	}
	return nil
}

// runErrors prints the error groups of v1/errors: of the keys still failing
// unless --state says which, as the UI's g does, since an idle key keeps the
// error it recovered from. --limit keeps the largest groups.
func (o *GetOptions) runErrors(ctx context.Context, s *inspector.Session) error {
	states := parseStates(o.States)
	if len(states) == 0 {
		states = explain.ErrorStates(o.fromLogs.enabled())
	}
	l, err := s.Errors(ctx, o.Controller, api.Filter{States: states})
	if err != nil {
		return err
	}
	groups := len(l.Groups)
	l.Groups = l.Groups[:min(groups, o.Limit)]
	if !o.output.text() {
		return o.output.print(o.Out, l, "")
	}
	scope := stateList(states)
	if len(o.States) == 0 {
		scope += "; --state widens it, e.g. --state " + scope + ",idle"
	}
	if groups == 0 {
		fmt.Fprintf(o.ErrOut, "No key has an error (%d tracked; states %s).\n", l.Total, scope)
		return nil
	}
	printErrorGroups(o.Out, l, o.Output == "wide")
	fmt.Fprintf(o.ErrOut, "%s with an error, in %s (%d tracked; states %s).\n",
		text.Plural(l.Matched, "key"), text.Plural(groups, "group"), l.Total, scope)
	if groups > len(l.Groups) {
		fmt.Fprintf(o.ErrOut, "Showing the largest %d of %d groups (--limit).\n", len(l.Groups), groups)
	}
	return nil
}

// stateList is states as --state takes them: backoff,failed.
func stateList(states []api.State) string {
	s := make([]string, len(states))
	for i, st := range states {
		s[i] = string(st)
	}
	return strings.Join(s, ",")
}

// printErrorGroups prints one row per group, largest first, as the server
// sorted them. wide prints the message whole. On a terminal the table
// fits its width (groupCols), as get's and top's g view do.
func printErrorGroups(w io.Writer, l *api.ErrorGroupList, wide bool) {
	w = text.PrintableWriter(w) // text from the cluster: see text.Printable
	width := screenWidth(w)
	if wide || width <= 0 {
		for _, line := range renderErrorGroups(l, groupCols{msgRunes: fit(w, maxErrorColumn), wide: wide}) {
			fmt.Fprintln(w, line)
		}
		return
	}
	for _, line := range fitErrorGroups(l, width) {
		fmt.Fprintln(w, line)
	}
}

// groupCols says which columns of the error groups' table are left out
// on a terminal too narrow for all of them, and how many runes a message
// keeps (0: whole).
type groupCols struct {
	noExamples, noFirstSeen bool
	msgRunes                int
	wide                    bool
}

// renderErrorGroups is the error groups' table, a line a row.
func renderErrorGroups(l *api.ErrorGroupList, c groupCols) []string {
	var b strings.Builder
	tw := newTable(&b)
	head := []string{"CONTROLLER", "COUNT", "CLASS"}
	if !c.noFirstSeen {
		head = append(head, "FIRST SEEN")
	}
	head = append(head, "LAST SEEN", "MESSAGE")
	if !c.noExamples {
		head = append(head, "EXAMPLES")
	}
	fmt.Fprintln(tw, strings.Join(head, "\t"))
	for _, g := range l.Groups {
		msg := text.OneLineAtBreaks(g.Message, c.msgRunes)
		if c.wide {
			msg = oneLine(g.Message, 0)
		}
		row := []string{g.Controller, fmt.Sprint(g.Count), explain.ClassCell(g.Class)}
		if !c.noFirstSeen {
			row = append(row, ago(g.FirstSeen, l.ServerTime))
		}
		row = append(row, ago(g.LastSeen, l.ServerTime), msg)
		if !c.noExamples {
			examples := strings.Join(g.Examples, ",")
			if len(g.Examples) < g.Count {
				examples += ",…"
			}
			row = append(row, examples)
		}
		fmt.Fprintln(tw, strings.Join(row, "\t"))
	}
	tw.Flush()
	return strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
}

// fitErrorGroups is the table fitted to width cells: EXAMPLES goes first
// (get -q with the message lists the keys), then FIRST SEEN, until MESSAGE keeps
// minErrorRoom cells; the message then takes the room left, cut between its
// parts with its cause kept, and a row still too wide is cut at the edge.
func fitErrorGroups(l *api.ErrorGroupList, width int) []string {
	c := groupCols{msgRunes: maxErrorColumn}
	lines := renderErrorGroups(l, c)
	if widest(lines) <= width {
		return lines
	}
	for _, narrow := range []func(){func() { c.noExamples = true }, func() { c.noFirstSeen = true }} {
		narrow()
		lines = renderErrorGroups(l, c)
		if widest(lines) <= width || width-messageAt(lines) >= minErrorRoom {
			break
		}
	}
	c.msgRunes = min(maxErrorColumn, max(width-messageAt(lines), 12))
	lines = renderErrorGroups(l, c)
	for i, line := range lines {
		if ansi.StringWidth(line) > width {
			lines[i] = ansi.Truncate(line, width, "…")
		}
	}
	return lines
}

// messageAt is where MESSAGE starts in the groups' header line.
func messageAt(lines []string) int {
	i := strings.Index(lines[0], "MESSAGE")
	if i < 0 {
		return 0
	}
	return ansi.StringWidth(lines[0][:i])
}
