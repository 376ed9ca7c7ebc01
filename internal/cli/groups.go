package cli

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

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
		states = explain.FailingStates
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
// sorted them. wide prints the message whole.
func printErrorGroups(w io.Writer, l *api.ErrorGroupList, wide bool) {
	w = text.PrintableWriter(w) // text from the cluster: see text.Printable
	tw := newTable(w)
	defer tw.Flush()
	fmt.Fprintln(tw, "CONTROLLER\tCOUNT\tCLASS\tFIRST SEEN\tLAST SEEN\tMESSAGE\tEXAMPLES")
	for _, g := range l.Groups {
		msg := oneLine(g.Message, fit(w, maxErrorColumn))
		if wide {
			msg = oneLine(g.Message, 0)
		}
		examples := strings.Join(g.Examples, ",")
		if len(g.Examples) < g.Count {
			examples += ",…"
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t%s\n", g.Controller, g.Count, dash(g.Class),
			ago(g.FirstSeen, l.ServerTime), ago(g.LastSeen, l.ServerTime), msg, examples)
	}
}
