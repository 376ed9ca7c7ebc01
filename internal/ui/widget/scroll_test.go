package widget

import (
	"fmt"
	"slices"
	"testing"
)

func TestClampRows(t *testing.T) {
	for _, tc := range []struct {
		name                  string
		cursor, offset, n, rs int
		wantCursor, wantOff   int
	}{
		{"empty list", 3, 2, 0, 5, 0, 0},
		{"cursor past the end", 12, 0, 10, 5, 9, 5},
		{"cursor above the screen pulls it up", 2, 4, 10, 5, 2, 2},
		{"cursor below the screen pushes it down", 7, 0, 10, 5, 7, 3},
		{"cursor on screen: offset stays", 4, 2, 10, 5, 4, 2},
		{"shrunk list: no empty rows below the last", 9, 8, 10, 5, 9, 5},
		{"list shorter than the screen", 1, 3, 3, 5, 1, 0},
		{"negative cursor", -4, 0, 10, 5, 0, 0},
	} {
		c, o := ClampRows(tc.cursor, tc.offset, tc.n, tc.rs)
		if c != tc.wantCursor || o != tc.wantOff {
			t.Errorf("%s: clampRows(%d, %d, %d, %d) = %d, %d; want %d, %d", tc.name, tc.cursor, tc.offset, tc.n, tc.rs, c, o, tc.wantCursor, tc.wantOff)
		}
	}
}

func TestClampText(t *testing.T) {
	for _, tc := range []struct {
		name            string
		scroll, n, room int
		want            int
	}{
		{"text fits", 4, 10, 10, 0},
		{"past the end: the last screenful, note on the bottom line", 50, 30, 10, 21},
		{"negative", -3, 30, 10, 0},
		{"within", 7, 30, 10, 7},
	} {
		if got := ClampText(tc.scroll, tc.n, tc.room); got != tc.want {
			t.Errorf("%s: clampText(%d, %d, %d) = %d, want %d", tc.name, tc.scroll, tc.n, tc.room, got, tc.want)
		}
	}
}

func TestScrolledText(t *testing.T) {
	s := NewStyles(true)
	lines := func(n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = fmt.Sprint(i)
		}
		return out
	}
	for _, tc := range []struct {
		name      string
		n, scroll int
		room      int
		want      []string
	}{
		{"fits", 3, 0, 5, []string{"0", "1", "2"}},
		{"more follow: the note says how many", 10, 2, 4, []string{"2", "3", "4", s.Dim.Render("↓ 5 more lines: j/k or pgdn to scroll")}},
		{"scrolled to the end", 10, 7, 4, []string{"7", "8", "9"}},
		{"scroll past the text", 3, 9, 4, []string{}},
		{"one line of room: no note", 10, 0, 1, lines(10)},
	} {
		if got := ScrolledText(lines(tc.n), tc.scroll, tc.room, &s); !slices.Equal(got, tc.want) {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}
