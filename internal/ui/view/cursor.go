package view

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
)

// The cursor follows a key, not a row (as k9s and htop do): Top.Sel
// names the key, and every page received puts the cursor back on it.

// follow puts the cursor back on the key it follows in the page just
// received. When that key left the page, the cursor goes to its nearest
// neighbour of the previous page that is still shown, and the note says so.
func (t *Top) follow(old *inspector.KeyList) string {
	items := t.Page.Items
	if !t.chosen {
		t.Cursor, t.Sel = 0, ""
		if k := t.Selected(); k != nil {
			t.Sel = rowID(k)
		}
		return ""
	}
	idx := func(id string) int {
		return slices.IndexFunc(items, func(k inspector.PodKey) bool { return rowID(&k) == id })
	}
	if t.Sel != "" {
		if i := idx(t.Sel); i >= 0 {
			t.Cursor = i
			return ""
		}
	}
	was := t.Sel
	t.Cursor = max(0, min(t.Cursor, len(items)-1))
	n := neighbour(old, was, idx)
	if was != "" && n < 0 {
		t.Cursor = 0 // none of its neighbours is shown either: start at the top
	}
	if n >= 0 {
		t.Cursor = n
	}
	t.Sel = ""
	if k := t.Selected(); k != nil {
		t.Sel = rowID(k)
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
func (t *Top) moveTo(i int) {
	rows := t.Rows()
	n := t.ShownRows()
	switch {
	case i < 0 && t.Offset > 0:
		t.Offset, t.Cursor, t.Sel = max(0, t.Offset+i), 0, ""
	case i >= n && t.Offset+rows < t.matched():
		t.Offset = min(t.Offset+i-n+1, max(0, t.matched()-rows))
		t.Cursor, t.Sel = min(i, rows-1), ""
	default:
		t.Cursor = max(0, min(i, n-1))
		if k := t.Selected(); k != nil {
			t.Sel = rowID(k)
		}
	}
}
