package ui

import tea "charm.land/bubbletea/v2"

// The table's page is as many rows as fit under the header and over the
// footer, and both change height: the diagnosis wraps once read, a status
// shows and expires, a failed refresh opens its panel. The header's count
// says the rows drawn, and the page is read again when the rows that fit
// change, so that a page down moves by the rows seen.

// rows is how many table rows fit: under the header (and the filter's
// reason while one is typed), the panel of a failed refresh, the table's
// title row, and over the footer (the status message, the hints line; on a
// narrow screen the selected row's line too). It is the page asked for,
// so that a page down moves by the rows seen: when it changes (a diagnosis
// that wraps once read, a status shown), refit reads the page again.
func (t *topModel) rows() int {
	n := t.c.Height - t.headerHeight() - 2 - t.c.StatusLines - len(t.problem())
	if t.filter.Typing() {
		n -= len(t.filter.View(&t.c.Styles, t.c.Width)) - 1
	}
	if t.c.Width < narrowWidth {
		n--
	}
	return max(1, n)
}

// shownRows is how many rows of the page are drawn: the page, but no more
// than fit now. The header's count says this many, on every frame: a page
// read before the header grew (the first one, before the diagnosis is
// known to wrap) has more rows than now fit, until refit reads it again.
func (t *topModel) shownRows() int {
	if t.page == nil {
		return 0
	}
	return min(len(t.page.Items), t.rows())
}

// refit reads the page again when the rows that fit changed since it was
// asked for, and the page does not already hold exactly what fits (all the
// keys matched from the offset). None while a read is under way: its
// answer is checked in turn. None while paused either (pause.go): the page
// held is drawn cut to fit, and read again on resume.
func (t *topModel) refit() tea.Cmd {
	if t.page == nil || t.inflight || t.query().Limit == t.asked {
		return nil
	}
	if n := len(t.page.Items); n > t.query().Limit || n < t.page.Matched-t.offset {
		if rows := t.rows(); t.cursor >= rows {
			// The rows shrank under the cursor (on the last row, a status
			// shows): the page scrolls so that its key stays on screen,
			// rather than leave the view and move the cursor.
			shift := t.cursor - rows + 1
			t.offset, t.cursor = t.offset+shift, t.cursor-shift
			// The page held starts at the offset until it is read again.
			p := *t.page
			p.Items = p.Items[min(shift, len(p.Items)):]
			t.page = &p
		}
		if t.c.Paused {
			return nil
		}
		cmd := t.refresh()
		t.refitSeq = t.seq
		return cmd
	}
	return nil
}
