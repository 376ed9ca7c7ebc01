package cli

import (
	"fmt"
	"io"
	"strings"
	"time"

	"k8s.io/cli-runtime/pkg/printers"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/cluster"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// maxErrorColumn bounds the LAST ERROR column of a table.
const maxErrorColumn = 60

// printKeys prints a kubectl-style table. wide adds the error class, the
// counters and times, and moves LAST ERROR to the end, whole: like
// kubectl's -o wide, it never truncates. pods leads each row with the
// key's NAMESPACE and POD, as kubectl's -A does: a cluster-wide list spans
// different controller deployments.
func printKeys(w io.Writer, l *inspector.KeyList, wide, pods bool) {
	printKeyTable(w, l, wide, pods, true)
}

func printKeyTable(w io.Writer, l *inspector.KeyList, wide, pods, header bool) {
	w = text.PrintableWriter(w) // text from the cluster: see text.Printable
	tw := newTable(w)
	defer tw.Flush()
	writeKeyTable(tw, l, wide, pods, header)
}

// writeKeyTable writes l's rows (and the header) to tw, which the caller
// flushes: get -w writes every frame to one table, whose columns keep the
// widths of the frames before (kubectl's tab writer remembers them).
func writeKeyTable(tw *table, l *inspector.KeyList, wide, pods, header bool) {
	writeKeyTableCols(tw, l, wide, pods, header, keyCols{})
}

// nameCaps bounds the name cells of a key table, in runes: its keys and
// its controllers (and pods). A key or a controller read off a log may run
// to thousands of runes; cut, the other columns stay in view.
type nameCaps struct{ key, controller int }

// wholeNames is a table's caps off a terminal (a pipe, a file): every name
// of a real object whole (text.MaxName), so that `| awk` reads the keys.
var wholeNames = nameCaps{key: text.MaxName, controller: text.MaxName}

// keyCols says which columns a key table leaves out and how it cuts its
// cells, for a terminal too narrow for all of them (printKeysFit); its
// zero value is the whole table.
type keyCols struct {
	// noSource, noDelay and noController leave SOURCE, DELAY and
	// CONTROLLER out, in that order as the terminal narrows: describe and
	// -o wide say the source and the delay, NEXT RETRY says when, and a
	// table of one controller's keys names it on every row.
	noSource, noDelay, noController bool
	// caps cuts the names (zero: wholeNames).
	caps nameCaps
	// errRoom is LAST ERROR's width, in runes (zero: maxErrorColumn); its
	// error is cut in the middle at a break, keeping more of its end.
	errRoom int
}

// writeKeyTableCols is writeKeyTable with the columns and cuts of c.
func writeKeyTableCols(tw *table, l *inspector.KeyList, wide, pods, header bool, c keyCols) {
	caps := c.caps
	if caps == (nameCaps{}) {
		caps = wholeNames
	}
	var head []string
	if pods {
		head = append(head, "NAMESPACE", "POD")
	}
	if !c.noController {
		head = append(head, "CONTROLLER")
	}
	head = append(head, "KEY", "STATE", "FAILS", "NEXT RETRY")
	if !c.noDelay {
		head = append(head, "DELAY")
	}
	if !c.noSource {
		head = append(head, "SOURCE")
	}
	if wide {
		head = append(head, "CLASS", "TOTAL", "RECONCILES", "SAME ERR", "FAILING FOR", "LAST CHANGE")
		if !pods {
			head = append(head, "POD")
		}
	}
	if header {
		fmt.Fprintln(tw, strings.Join(head, "\t")+"\tLAST ERROR")
	}
	for i := range l.Items {
		k := &l.Items[i]
		r := explain.NewKeyRow(&k.Key, k.Pod, l.ServerTime) // the cells top's table shows too
		errText := "<none>"
		switch {
		case !r.HasError && !r.Requeued:
		case wide:
			errText = r.Error(0)
		case c.errRoom > 0:
			errText = r.ErrorAtBreaks(c.errRoom)
		default:
			errText = r.Error(maxErrorColumn)
		}
		var cells []string
		if pods {
			ns, pod, _ := strings.Cut(r.Pod, "/")
			cells = append(cells, dash(text.Cell(ns, text.MaxName)), dash(text.Cell(pod, caps.controller)))
		}
		if !c.noController {
			cells = append(cells, text.Cell(r.Controller, caps.controller))
		}
		cells = append(cells, text.Cell(r.Key, caps.key), r.State, r.Failures, r.NextRetry)
		if !c.noDelay {
			cells = append(cells, r.Delay)
		}
		if !c.noSource {
			cells = append(cells, r.Source)
		}
		if wide {
			cells = append(cells, r.Class, r.Total, fmt.Sprint(k.Reconciles), fmt.Sprint(k.SameErrorCount),
				r.FailingFor, ago(k.LastEventAt, l.ServerTime))
			if !pods {
				cells = append(cells, dash(text.Cell(k.Pod, text.MaxName)))
			}
		}
		fmt.Fprintf(tw, "%s\t%s\n", strings.Join(cells, "\t"), errText)
	}
}

// printDiagnoses prints one line per controller: what `get` shows on a
// terminal's stderr above its table.
func printDiagnoses(w io.Writer, ds []explain.ControllerDiagnosis) {
	w = text.PrintableWriter(w) // text from the cluster: see text.Printable
	for _, d := range ds {
		fmt.Fprintln(w, d.Line())
	}
	if len(ds) > 0 {
		fmt.Fprintln(w)
	}
}

// printPods lists discovered pods, so the user can pick a target.
func printPods(w io.Writer, pods []cluster.Pod) {
	w = text.PrintableWriter(w) // text from the cluster: see text.Printable
	tw := newTable(w)
	defer tw.Flush()
	fmt.Fprintln(tw, "NAMESPACE\tPOD\tPORT\tREADY")
	for _, p := range pods {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%v\n", p.Namespace, p.Name, p.Port, p.Ready)
	}
}

// ago is "3m1s ago" relative to the server's now.
func ago(t, now time.Time) string { return text.Ago(t, now) }

// sinceWhen is a moment with how long ago it was: "21:05:10 (1m6s ago)",
// "-" for none.
func sinceWhen(t, now time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return text.TimeOfDay(t) + " (" + text.Ago(t, now) + ")"
}

// dur prints a duration with the one formatter, "-" for none.
func dur(d time.Duration) string {
	if d <= 0 {
		return "-"
	}
	return text.FormatDuration(d)
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// oneLine flattens s to one line of at most n runes (n <= 0: whole).
func oneLine(s string, n int) string { return text.OneLine(s, n) }

// table is kubectl's tab writer behind text.PrintableWriter: every cell
// is escaped before the columns are measured, so a row holding an escaped
// control character stays aligned.
type table struct {
	io.Writer
	tw interface{ Flush() error }
}

// newTable is a table writing to w.
func newTable(w io.Writer) *table {
	tw := printers.GetNewTabWriter(w)
	return &table{Writer: text.PrintableWriter(tw), tw: tw}
}

// Flush writes the table out.
func (t *table) Flush() error { return t.tw.Flush() }
