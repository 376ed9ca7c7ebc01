package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/why"
	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

// printWhyChain prints the chain as an indented tree: each node its
// kind/name, verdict and one line of why; the blockers marked.
func printWhyChain(w io.Writer, a *why.Answer) {
	c := a.Chain
	if c == nil || c.Root == nil || (len(c.Root.Below) == 0 && len(c.Cut) == 0) {
		return
	}
	fmt.Fprintln(w, "\nChain:")
	var walk func(n *why.Node, indent string)
	walk = func(n *why.Node, indent string) {
		mark := ""
		if n.Blocker {
			mark = "  <- blocker"
		}
		switch {
		case n.Omitted > 0:
			fmt.Fprintf(w, "  %s(%s)\n", indent, n.Line)
		case indent == "":
			fmt.Fprintf(w, "  %s  %s%s\n", n.Object.Ref(), n.Status, mark)
		default:
			fmt.Fprintf(w, "  %s%s [%s]  %s%s\n", indent, n.Object.Ref(), n.Via, n.Status, mark)
		}
		// An object a failure names is said even when Current: its room
		// now, and when it changed, are what the retry sentence weighs.
		if n.Omitted == 0 && (n.Status != why.Current || n.Named) && n.Line != "" {
			for _, l := range text.Wrap(text.OneLine(n.Line, 0), messageWidth+20) {
				fmt.Fprintf(w, "  %s    %s\n", strings.Repeat(" ", len(indent)), l)
			}
		}
		if n.Named && n.Changed != nil && !n.Changed.Time.IsZero() {
			by := ""
			if n.Changed.Manager != "" {
				by = " by " + n.Changed.Manager
			}
			fmt.Fprintf(w, "  %s    changed at %s%s\n", strings.Repeat(" ", len(indent)), text.TimeOfDay(n.Changed.Time), by)
		}
		for _, b := range n.Below {
			walk(b, indent+"  ")
		}
	}
	walk(c.Root, "")
	for _, cut := range c.Cut {
		fmt.Fprintf(w, "  (cut: %s)\n", text.Printable(cut))
	}
}
