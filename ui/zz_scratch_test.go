package ui

import (
	"fmt"
	"testing"
)

func TestZZScratch(t *testing.T) {
	r, srv := demoWorld(t)
	for _, w := range []int{80, 100, 120, 160} {
		m := firstScreen(t, r, srv, w, 30)
		for range 4 {
			if m.tbl().Controller == "outage" {
				break
			}
			m = send(t, m, press("tab"))
		}
		m = send(t, m, m.refreshTop()())
		m = send(t, m, m.refreshTop()())
		fmt.Println(screen(m))
		m = send(t, m, press("tab"))
		m = send(t, m, m.refreshTop()())
		m = send(t, m, m.refreshTop()())
		fmt.Println(screen(m))
	}
}
