package view

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/kubectl-backoff/kubectl-backoff/demo"
	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
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
