package widget

import (
	"context"
	"errors"
	"net/url"
	"strconv"
	"strings"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
)

// Countdown is the time left until t at now: explain.Countdown.
func Countdown(t, now time.Time) string {
	if now.IsZero() {
		return "-"
	}
	return explain.Countdown(t, now)
}

// Short formats a duration: explain.FormatDuration, the one formatter.
func Short(d time.Duration) string { return explain.FormatDuration(d) }

// Ago formats how long before now t was: explain.Ago.
func Ago(t, now time.Time) string { return explain.Ago(t, now) }

// ClockTime formats a server time as a UTC time of day.
func ClockTime(t time.Time) string { return explain.TimeOfDay(t) }

// Fit pads or truncates s (which may be styled) to exactly w cells.
func Fit(s string, w int) string {
	if w <= 0 {
		return ""
	}
	sw := lipgloss.Width(s)
	if sw > w {
		return ansi.Truncate(s, w, "…")
	}
	return s + strings.Repeat(" ", w-sw)
}

// FitLeft right-aligns s in w cells.
func FitLeft(s string, w int) string {
	sw := lipgloss.Width(s)
	if sw > w {
		return ansi.Truncate(s, w, "…")
	}
	return strings.Repeat(" ", w-sw) + s
}

// ErrText is err in one line, without the URL a transport error repeats:
// "dial tcp 127.0.0.1:8082: connect: connection refused".
func ErrText(err error) string {
	if ue, ok := errors.AsType[*url.Error](err); ok {
		return OneLine(ue.Err.Error())
	}
	return OneLine(err.Error())
}

// TimedOut reports whether err is a read that got no answer in time (the
// request's deadline, or the connection's): the endpoint took it and said
// nothing, which is not answering, not a refusal.
func TimedOut(err error) bool {
	var ne interface{ Timeout() bool }
	return errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout())
}

// OneLine makes s a single line: explain.OneLine, not cut.
func OneLine(s string) string { return explain.OneLine(s, 0) }

// Wrap word-wraps plain text to w cells.
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

// wrapPara wraps one paragraph to w cells: at spaces first, never inside a
// hyphenated name (kubectl-client-side-apply, widget-system) while the
// words fit. ansi.Wrap lets a line overflow
// by a cell (a "," or "/" breakpoint at the edge, a space left before a
// "--"), which fit would then cut with "…": trailing spaces are dropped, a
// paragraph that still overflows breaks at spaces and hyphens only, and
// the last resort cuts at the width.
func wrapPara(p string, w int) []string {
	for _, try := range []func() string{
		func() string { return keepHyphens(p, func(q string) string { return ansi.Wordwrap(q, w, ",") }) },
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
// wrappers always break after "-", which splits a name in two.
const nbHyphen = "\u2011"

// keepHyphens wraps p with wrap, its hyphens kept from breaking; p as wrap
// leaves it when p holds the stand-in itself.
func keepHyphens(p string, wrap func(string) string) string {
	if strings.Contains(p, nbHyphen) {
		return wrap(p)
	}
	return strings.ReplaceAll(wrap(strings.ReplaceAll(p, "-", nbHyphen)), nbHyphen, "-")
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

// sparkBlocks are the sparkline's eight levels.
var sparkBlocks = []rune("▁▂▃▄▅▆▇█")

// Sparkline draws counts as one character each, scaled to the largest; an
// empty cell is a space.
func Sparkline(counts []int) string {
	peak := 0
	for _, n := range counts {
		peak = max(peak, n)
	}
	var b strings.Builder
	for _, n := range counts {
		if n == 0 {
			b.WriteRune(' ')
			continue
		}
		lvl := (n*len(sparkBlocks) - 1) / peak
		b.WriteRune(sparkBlocks[min(lvl, len(sparkBlocks)-1)])
	}
	return b.String()
}

// Compact formats n in at most 5 cells: 980, 2.7k, 12.9k, 130k, 1.2M.
func Compact(n int) string {
	switch {
	case n < 1000:
		return strconv.Itoa(n)
	case n < 100_000:
		return strconv.FormatFloat(float64(n)/1000, 'f', 1, 64) + "k"
	case n < 1_000_000:
		return strconv.Itoa(n/1000) + "k"
	}
	return strconv.FormatFloat(float64(n)/1e6, 'f', 1, 64) + "M"
}

// Thousands formats n with thousands separators: explain.Thousands.
func Thousands(n int) string { return explain.Thousands(n) }

// Pad cuts or extends lines to exactly n.
func Pad(lines []string, n int) []string {
	if n < 0 {
		n = 0
	}
	if len(lines) > n {
		return lines[:n]
	}
	for len(lines) < n {
		lines = append(lines, "")
	}
	return lines
}

// Dash is s, or "-" for none.
func Dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
