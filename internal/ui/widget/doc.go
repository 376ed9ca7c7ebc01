// Package widget holds the pieces the views of `kubectl backoff top` are
// drawn with: the filter line, the forget dialog, the header's forecast,
// limiter and log-read lines, a key's timeline of attempts, scrolling, the
// palette and the fitting of text to terminal cells (the cut and the wrap
// are internal/text's, the CLI's too).
// Each is a function of what it is handed (styles, data, a width, a time)
// or a small model a view holds; none reads a view's state or does I/O,
// so the views (internal/ui/view) and the root (internal/ui) share one of
// each.
//
//	st := widget.NewStyles(true)
//	lines := []string{
//		widget.Fit(widget.LimiterLine(&st, ov.Controllers, width, time.Now()), width),
//		widget.Fit(widget.ForecastLine(&st, ov, "", ov.ServerTime, width), width),
//	}
//	lines = append(lines, widget.Timeline(&st, &key, width)...)
//	return strings.Join(widget.Pad(lines, height), "\n")
//
// Text from the cluster (names, errors) is escaped by the caller where it
// is drawn, or with PrintableFields in a value as it arrives: a widget
// draws what it is given.
package widget
