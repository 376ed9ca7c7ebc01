package view

import tea "charm.land/bubbletea/v2"

// The table's page is as many rows as fit under the header and over the
// footer, and both change height: the diagnosis wraps once read, a status
// shows and expires, a failed refresh opens its panel. The header's count
// says the rows drawn, and the page is read again when the rows that fit
// change, so that a page down moves by the rows seen.

// Rows is how many table rows fit: under the header (and the filter's
// reason while one is typed), the panel of a failed refresh, the table's
// title row, and over the footer (the status message, the hints line; on a
// narrow screen the selected row's line too). It is the page asked for,
// so that a page down moves by the rows seen: when it changes (a diagnosis
// that wraps once read, a status shown), refit reads the page again.
func (t *Top) Rows() int {
	n := t.C.Height - t.headerFitting().Height() - 2 - t.C.StatusLines - len(problemPanel(t.C, &t.TopModel))
	if t.Filter.Typing() {
		n -= len(t.Filter.View(&t.C.Styles, t.C.Width)) - 1
	}
	if t.C.Width < NarrowWidth {
		n--
	}
	return max(1, n)
}

// ShownRows is how many rows of the page are drawn: the page, but no more
// than fit now. The header's count says this many, on every frame: a page
// read before the header grew (the first one, before the diagnosis is
// known to wrap) has more rows than now fit, until refit reads it again.
func (t *Top) ShownRows() int {
	if t.Page == nil {
		return 0
	}
	return min(len(t.Page.Items), t.Rows())
}

// Refit reads the page again when the rows that fit changed since it was
// asked for, and the page does not already hold exactly what fits (all the
// keys matched from the offset). None while a read is under way (its
// answer is checked in turn), but for the first page. None while paused either (the root's pause.go): the page
// held is drawn cut to fit, and read again on resume.
func (t *Top) Refit() tea.Cmd {
	if t.Page == nil && t.Inflight && !t.C.Paused && t.Query().Limit != t.Asked {
		// The first read went out at the size the UI opened with
		// (Opening), before the terminal said its own: asked again at
		// this size, the first page fills the screen at once, rather
		// than come short and be read again after.
		cmd := t.Refresh()
		t.refitSeq = t.Seq
		return cmd
	}
	if t.Page == nil || t.Inflight || t.Query().Limit == t.Asked {
		return nil
	}
	if n := len(t.Page.Items); n > t.Query().Limit || n < t.Page.Matched-t.Offset {
		if rows := t.Rows(); t.Cursor >= rows {
			// The rows shrank under the cursor (on the last row, a status
			// shows): the page scrolls so that its key stays on screen,
			// rather than leave the view and move the cursor.
			shift := t.Cursor - rows + 1
			t.Offset, t.Cursor = t.Offset+shift, t.Cursor-shift
			// The page held starts at the offset until it is read again.
			p := *t.Page
			p.Items = p.Items[min(shift, len(p.Items)):]
			t.Page = &p
		}
		if t.C.Paused {
			return nil
		}
		cmd := t.Refresh()
		t.refitSeq = t.Seq
		return cmd
	}
	return nil
}
