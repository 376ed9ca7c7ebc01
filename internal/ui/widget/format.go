package widget

import (
	"context"
	"errors"
	"net/url"
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/kubectl-backoff/kubectl-backoff/internal/text"
)

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
		return text.OneLine(ue.Err.Error(), 0)
	}
	return text.OneLine(err.Error(), 0)
}

// TimedOut reports whether err is a read that got no answer in time (the
// request's deadline, or the connection's): the endpoint took it and said
// nothing, which is not answering, not a refusal.
func TimedOut(err error) bool {
	var ne interface{ Timeout() bool }
	return errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout())
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
