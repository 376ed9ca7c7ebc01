package ui

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector"
)

// The cursor follows a key, not a row (as k9s and htop do): topModel.sel
// names the key, and every page received puts the cursor back on it.

// follow puts the cursor back on the key it follows in the page just
// received. When that key left the page, the cursor goes to its nearest
// neighbour of the previous page that is still shown, and the note says so.
func (t *topModel) follow(old *inspector.KeyList) string {
	items := t.page.Items
	if !t.chosen {
		t.cursor, t.sel = 0, ""
		if k := t.selected(); k != nil {
			t.sel = rowID(k)
		}
		return ""
	}
	idx := func(id string) int {
		return slices.IndexFunc(items, func(k inspector.PodKey) bool { return rowID(&k) == id })
	}
	if t.sel != "" {
		if i := idx(t.sel); i >= 0 {
			t.cursor = i
			return ""
		}
	}
	was := t.sel
	t.cursor = max(0, min(t.cursor, len(items)-1))
	n := neighbour(old, was, idx)
	if was != "" && n < 0 {
		t.cursor = 0 // none of its neighbours is shown either: start at the top
	}
	if n >= 0 {
		t.cursor = n
	}
	t.sel = ""
	if k := t.selected(); k != nil {
		t.sel = rowID(k)
		switch {
		case was != "" && n >= 0:
			return fmt.Sprintf("%s left the view; the cursor moved to its neighbour %s", keyOfRow(was), k.Key.Key)
		case was != "":
			return fmt.Sprintf("%s left the view; the cursor is on the first key, %s", keyOfRow(was), k.Key.Key)
		}
	} else if was != "" {
		return keyOfRow(was) + " left the view; no keys are shown"
	}
	return ""
}

// neighbour is the row of the page just received holding the nearest
// neighbour, in the previous page old, of the key was: the rows below it
// first, then above; -1 when none is still shown.
func neighbour(old *inspector.KeyList, was string, idx func(string) int) int {
	if was == "" || old == nil {
		return -1
	}
	i := slices.IndexFunc(old.Items, func(k inspector.PodKey) bool { return rowID(&k) == was })
	if i < 0 {
		return -1
	}
	for d := 1; d < len(old.Items); d++ {
		for _, j := range []int{i + d, i - d} {
			if j >= 0 && j < len(old.Items) {
				if n := idx(rowID(&old.Items[j])); n >= 0 {
					return n
				}
			}
		}
	}
	return -1
}

func rowID(k *inspector.PodKey) string { return k.Pod + "|" + k.Controller + "|" + k.Key.Key }

// keyOfRow is the key a rowID names.
func keyOfRow(id string) string { return id[strings.LastIndexByte(id, '|')+1:] }

// moveTo puts the cursor on row i of the page, scrolling the page when i is
// off it; a scroll leaves the key to follow to whatever lands under the cursor.
func (t *topModel) moveTo(i int) {
	rows := t.rows()
	n := t.shownRows()
	switch {
	case i < 0 && t.offset > 0:
		t.offset, t.cursor, t.sel = max(0, t.offset+i), 0, ""
	case i >= n && t.offset+rows < t.matched():
		t.offset = min(t.offset+i-n+1, max(0, t.matched()-rows))
		t.cursor, t.sel = min(i, rows-1), ""
	default:
		t.cursor = max(0, min(i, n-1))
		if k := t.selected(); k != nil {
			t.sel = rowID(k)
		}
	}
}
