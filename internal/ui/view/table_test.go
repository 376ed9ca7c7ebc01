package view

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubectl-backoff/kubectl-backoff/demo"
	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/widget"
)

// The LAST ERROR column keeps both ends of an error too long for it, as
// `get` cuts it (text.OneLine): a wrapped error names its cause last (the
// demo's outage: "sync with inventory API: PUT https://…/outage-00000: 503
// Service Unavailable"; wellbehaved's "terminal error: invalid spec:
// spec.storageClass must be set"), and a column cut at its end showed
// "sync with inventory API: PUT https://invent…", the 503 gone, on a 100-
// and a 120-column terminal. The errors are the demo's own, a minute into
// its first outage, read from its endpoint.
func TestLastErrorKeepsItsCause(t *testing.T) {
	r, err := demo.FirstOutage()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	srv := httptest.NewServer(r.Handler())
	defer srv.Close()
	s, err := inspector.Direct(srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	ov, err := s.Overview(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, ctl := range []string{"outage", "wellbehaved"} {
		page, err := s.Keys(ctx, inspector.KeyQuery{Controller: ctl, States: []api.State{api.StateBackoff, api.StateFailed}, Limit: 5})
		if err != nil || len(page.Items) == 0 {
			t.Fatalf("%s: %v keys, %v", ctl, page, err)
		}
		for _, w := range []int{100, 120} {
			c := &Common{Width: w, Height: 30, Styles: widget.NewStyles(true), Keys: NewKeyMap(), SeenMarks: map[string]bool{},
				Opts: Options{Clock: r.Clock.Now, Refresh: time.Second}}
			m := &TopModel{C: c, Overview: ov, Page: page, Controller: ctl}
			lines := TopTable{C: c, M: m, Cursor: -1, Shown: len(page.Items)}.Lines()
			for i, k := range page.Items {
				msg := k.LastError.Message
				row := strings.TrimRight(ansi.Strip(lines[i+1]), " ")
				if strings.Contains(row, msg) {
					continue // it fits whole
				}
				first, last := strings.Fields(msg)[0], msg[strings.LastIndex(msg, ": ")+2:]
				if !strings.Contains(row, " "+first) || !strings.HasSuffix(row, last) {
					t.Errorf("%d columns, %s: the row\n%s\ndoes not keep the start (%q) and the cause (%q) of\n%s", w, k.Key.Key, row, first, last, msg)
				}
			}
		}
	}
}

// TestColumnsFitTheirValues: at 80 columns, a page of the demo's naive
// keys (every one backing off 16m40s, one controller's) is laid out with
// each column as wide as its widest value or its title, and LAST ERROR
// takes the rest: NEXT kept 8 cells for "16m40s" (6), DELAY 7, STATE 9
// for "backoff" and CONTROLLER 10 for "naive", and the error had 17 of
// the 80. Before any row comes, the widths laid out stay.
func TestColumnsFitTheirValues(t *testing.T) {
	at := time.Date(2026, 12, 6, 20, 0, 0, 0, time.UTC)
	page := &inspector.KeyList{ServerTime: at}
	for i := range 14 {
		page.Items = append(page.Items, inspector.PodKey{Key: api.Key{Controller: "naive", Key: fmt.Sprintf("demo/naive-%05d", i+1),
			State: api.StateBackoff, Failures: 25 + i, NextRetryAt: at.Add(16*time.Minute + time.Duration(i)*time.Second),
			Delay: metav1.Duration{Duration: 1000 * time.Second}, DelaySource: "item-exponential",
			LastError: &api.ErrorRecord{Message: "spec.storageClass must be set", At: at, Class: "permanent"}}})
	}
	ov := &inspector.Overview{ServerTime: at, Controllers: []api.Controller{{Name: "naive"}, {Name: "outage"}, {Name: "wellbehaved"}}}
	c := &Common{Width: 80, Height: 24, Styles: widget.NewStyles(true), Keys: NewKeyMap(), SeenMarks: map[string]bool{},
		Opts: Options{Clock: func() time.Time { return at }, Refresh: time.Second}}
	for _, tt := range []struct {
		name string
		page *inspector.KeyList
		want map[string]int
	}{
		// The mark's two cells, each column's, a space after each.
		{"the page", page, map[string]int{"STATE": 7, "CTRL": 5, "KEY": 16, "FAILS": 5, "NEXT": 6, "DELAY": 6, "LAST ERROR": 80 - 2 - (7 + 5 + 16 + 5 + 6 + 6) - 7}},
		{"no rows yet", nil, map[string]int{"STATE": 9, "CONTROLLER": 10, "NEXT": 8, "DELAY": 7}},
	} {
		m := &TopModel{C: c, Overview: ov, Page: tt.page, fetchedAt: at}
		tb := TopTable{C: c, M: m, Cursor: 0, Shown: 14}
		lines := tb.Lines()
		var rows []explain.KeyRow
		if tt.page != nil {
			for i := range page.Items {
				rows = append(rows, explain.NewKeyRow(&page.Items[i].Key, "", at))
			}
		}
		got := map[string]int{}
		for _, col := range tb.columns(rows) {
			got[col.title] = col.width
		}
		for title, w := range tt.want {
			if got[title] != w {
				t.Errorf("%s: %s is %d cells, want %d (columns %v)\n%s", tt.name, title, got[title], w, got, ansi.Strip(strings.Join(lines, "\n")))
			}
		}
		if tt.page == nil {
			continue
		}
		for _, l := range lines {
			if w := ansi.StringWidth(l); w > 80 {
				t.Errorf("%s: a line is %d cells:\n%s", tt.name, w, l)
			}
		}
		if row := ansi.Strip(lines[1]); !strings.Contains(row, " 16m0s 16m40s spec.storageCl…must be set ") {
			t.Errorf("%s: the first row does not give NEXT and DELAY their values' width and the error the rest:\n%s", tt.name, row)
		}
	}
}
