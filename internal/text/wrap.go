package text

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Text is wrapped, not cut, where the whole of it matters (a condition's
// message, a diagnosis, help): the CLI's columns and the TUI's panes wrap
// with the one function, measured in terminal cells, so that a wide rune
// counts as the two cells it takes.

// Wrap word-wraps s to w cells, each paragraph (a line of s) on its own:
// at spaces first, never inside a hyphenated name
// (kubectl-client-side-apply, widget-system) nor inside a command quoted
// in backticks (pasted, half a command runs the wrong thing) while the
// words fit; a word
// wider than w breaks at "/" or ",", else at the width. No line returned is
// wider than w; trailing spaces are dropped. s is drawn as given: escape
// untrusted text first (OneLine flattens and escapes it).
func Wrap(s string, w int) []string {
	if w <= 0 {
		return nil
	}
	var lines []string
	for _, para := range strings.Split(s, "\n") {
		lines = append(lines, wrapPara(para, w)...)
	}
	return lines
}

// wrapPara wraps one paragraph to w cells. ansi.Wrap lets a line overflow
// by a cell (a "," or "/" breakpoint at the edge, a space left before a
// "--"), which a fitted cell would then cut with "…": trailing spaces are
// dropped, a paragraph that still overflows breaks at spaces and hyphens
// only, and the last resort cuts at the width.
func wrapPara(p string, w int) []string {
	for _, try := range []func() string{
		func() string { return keep(p, true, func(q string) string { return ansi.Wordwrap(q, w, ",") }) },
		func() string { return keep(p, false, func(q string) string { return ansi.Wordwrap(q, w, ",") }) },
		func() string { return ansi.Wrap(p, w, " /,") },
		func() string { return ansi.Wrap(p, w, "") },
		func() string { return ansi.Hardwrap(p, w, true) },
	} {
		lines := strings.Split(try(), "\n")
		fits := true
		for i, l := range lines {
			lines[i] = strings.TrimRight(l, " ")
			fits = fits && ansi.StringWidth(lines[i]) <= w
		}
		if fits {
			return lines
		}
	}
	return strings.Split(ansi.Hardwrap(p, w, true), "\n")
}

// nbHyphen stands in for a hyphen while a paragraph is wrapped: ansi's
// wrappers always break after "-", which splits a name in two. nbSpace
// stands in for a space inside backticks: ansi.Wordwrap never breaks there.
const (
	nbHyphen = "\u2011"
	nbSpace  = "\u00a0"
)

// keep wraps p with wrap, its hyphens kept from breaking, and with quoted
// the spaces of what it quotes in backticks too (a command wider than the
// room is wrapped again without: broken at its spaces, not its hyphens);
// p as wrap leaves it when p holds a stand-in itself, which could not be
// told from the ones put in.
func keep(p string, quoted bool, wrap func(string) string) string {
	if strings.Contains(p, nbHyphen) || strings.Contains(p, nbSpace) {
		return wrap(p)
	}
	q := p
	if quoted {
		q = quotedSpaces(q)
	}
	q = strings.ReplaceAll(q, "-", nbHyphen)
	return strings.NewReplacer(nbHyphen, "-", nbSpace, " ").Replace(wrap(q))
}

// quotedSpaces returns p with the spaces between a pair of backticks as
// nbSpace; an unpaired backtick quotes nothing.
func quotedSpaces(p string) string {
	var b strings.Builder
	for {
		open := strings.IndexByte(p, '`')
		if open < 0 {
			break
		}
		end := strings.IndexByte(p[open+1:], '`')
		if end < 0 {
			break
		}
		end += open + 1
		b.WriteString(p[:open])
		b.WriteString(strings.ReplaceAll(p[open:end], " ", nbSpace))
		p = p[end:]
		b.WriteByte('`')
		p = p[1:]
	}
	b.WriteString(p)
	return b.String()
}

// WrapIndent wraps s to w, indenting the continuation lines by indent: the
// first line takes the full width, the rest is wrapped anew to w-indent.
// The rest is cut from s itself, not re-joined from wrapped lines, so a
// break after a hyphen ("--requeue") adds no space.
func WrapIndent(s string, w, indent int) []string {
	first := Wrap(s, w)
	if len(first) <= 1 {
		return first
	}
	rest, ok := strings.CutPrefix(s, first[0])
	if !ok {
		rest = strings.Join(first[1:], " ")
	}
	out := []string{first[0]}
	for _, l := range Wrap(strings.TrimSpace(rest), max(1, w-indent)) {
		out = append(out, strings.Repeat(" ", indent)+l)
	}
	return out
}
