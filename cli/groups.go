package cli

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"k8s.io/cli-runtime/pkg/printers"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// validateGroupBy checks --group-by and what goes with it: the server
// groups by controller and state only, so KEYs and -q do not apply.
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
	case o.output.format() == "name":
		return fmt.Errorf("--output name: error groups have no names; use -o json, yaml or jsonpath")
	}
	return nil
}

// runErrors prints the error groups of v1/errors.
func (o *GetOptions) runErrors(ctx context.Context, s *inspector.Session) error {
	l, err := s.Errors(ctx, o.Controller, toStates(o.States))
	if err != nil {
		return err
	}
	if !o.output.text() {
		return o.output.print(o.Out, l, "")
	}
	printErrorGroups(o.Out, l, o.Output == "wide")
	if len(l.Groups) == 0 {
		fmt.Fprintf(o.ErrOut, "No key matched has an error (%d tracked).\n", l.Total)
	} else {
		fmt.Fprintf(o.ErrOut, "%s with an error, in %s (%d tracked).\n", plural(l.Matched, "key"), plural(len(l.Groups), "group"), l.Total)
	}
	return nil
}

// printErrorGroups prints one row per group, largest first, as the server
// sorted them. wide prints the message whole.
func printErrorGroups(w io.Writer, l *api.ErrorGroupList, wide bool) {
	tw := printers.GetNewTabWriter(w)
	defer tw.Flush()
	fmt.Fprintln(tw, "CONTROLLER\tCOUNT\tCLASS\tFIRST SEEN\tLAST SEEN\tMESSAGE\tEXAMPLES")
	for _, g := range l.Groups {
		msg := oneLine(g.Message, maxErrorColumn)
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

// plural is "1 key", "2 keys".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
