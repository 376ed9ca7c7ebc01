package ui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/logs"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/snapshot"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/widget"
)

// TestFilterAgreesEverywhere runs the same filters against the endpoint,
// the log-mode server, the snapshot server and the UI's filter line: each
// accepts exactly the filters the others accept (with a 400 naming q when
// not), and the three servers select the same keys, which are the ones the
// filter line's matcher passes. The keys and their errors are the same on
// the three: the snapshot is taken from the endpoint, and the log holds a
// controller-runtime "Reconciler error" line per key with its message.
func TestFilterAgreesEverywhere(t *testing.T) {
	const n = 24
	f := newFixture(t, n, true)
	ctx := context.Background()
	endpoint := f.session(t)
	snap, err := snapshot.Take(ctx, endpoint, snapshot.TakeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	store := logs.NewStore(logs.Options{})
	var log strings.Builder
	errOf := map[string]string{}
	for i := range n {
		key, msg := fmt.Sprintf("demo/widget-%06d", i), fmt.Sprintf(fixtureError, i%250)
		errOf[key] = msg
		line, _ := json.Marshal(map[string]any{"level": "error", "ts": 1617276479.081, "logger": "controller-runtime.controller",
			"msg": "Reconciler error", "controller": "widgets", "request": key, "error": msg})
		log.Write(append(line, '\n'))
	}
	if _, _, err := store.Read(ctx, strings.NewReader(log.String())); err != nil {
		t.Fatal(err)
	}
	servers := []struct {
		name string
		s    *inspector.Session
	}{{"endpoint", endpoint}, {"log server", inspector.InProcessSession(nil, inspector.NamedHandler{Name: "logs", Handler: store.Handler()})}, {"snapshot server", inspector.InProcessSession(nil, snapshot.Handlers(snap)...)}}

	const refused = -1
	for _, tt := range []struct {
		q    string
		want int // keys selected, read off the fixture; refused for a 400
	}{
		{"", n},
		{"widget-00001", 10},                       // widget-000010 … 000019
		{"WIDGET", 0},                              // an upper-case letter: exact case
		{"Widget", 0},                              // likewise
		{"10.0.0.7:", 1},                           // in the error only
		{"CONNECTION", 0},                          // exact case, and the error says "connection"
		{"connection refused", n},                  // lower case: any case, in the error
		{"~widget-00000(1|2)$", 2},                 // a regular expression: case as written
		{"~^demo/", n},                             // anchored at the key
		{"~(?i)WIDGET-000003", 1},                  // a regular expression asks for case folding itself
		{`~10\.0\.0\.1[0-9]:`, 10},                 // 10.0.0.10 … 10.0.0.19
		{"~(", refused},                            // does not compile
		{"~[z-a]", refused},                        // does not compile
		{"~(.*){16}#", refused},                    // too many branch points
		{"~.{0,1000}.{0,1000}.{0,1000}#", refused}, // too many instructions
		{"~" + strings.Repeat("(a?)", 20), refused},
		{strings.Repeat("a", 257), refused}, // a case-insensitive substring over 256 bytes
		{strings.Repeat("A", 257), 0},       // exact case: no bound but the 1024 bytes
		{strings.Repeat("x", 1025), refused},
	} {
		q := tt.q
		uiErr := widget.ValidFilter(q)
		if (uiErr != nil) != (tt.want == refused) {
			t.Errorf("q=%.40q: the filter line says %v; want refused %v", q, uiErr, tt.want == refused)
		}
		var want []string
		if uiErr == nil {
			match := widget.FilterMatcher(q)
			for key, msg := range errOf {
				if match(key) || match(msg) {
					want = append(want, key)
				}
			}
			slices.Sort(want)
			if len(want) != tt.want {
				t.Errorf("q=%.40q: the filter line's matcher passes %d keys, want %d", q, len(want), tt.want)
			}
		}
		for _, srv := range servers {
			list, err := srv.s.Keys(ctx, inspector.KeyQuery{Q: q, Sort: api.SortKey, Limit: api.MaxLimit})
			ae, isAPI := errors.AsType[*inspector.APIError](err)
			switch {
			case uiErr != nil && (!isAPI || ae.Code != http.StatusBadRequest || ae.Field != "q"):
				t.Errorf("q=%.40q: the filter line refuses it (%v), the %s answers %v; want a 400 naming q", q, uiErr, srv.name, err)
			case uiErr != nil:
				if !strings.Contains(ae.Message, uiErr.Error()) {
					t.Errorf("q=%.40q: the filter line says %q, the %s %q; want the same words", q, uiErr, srv.name, ae.Message)
				}
			case err != nil:
				t.Errorf("q=%.40q: the filter line accepts it, the %s refuses it: %v", q, srv.name, err)
			default:
				var got []string
				for _, k := range list.Items {
					got = append(got, k.Key.Key)
				}
				if !slices.Equal(got, want) || list.Total != n {
					t.Errorf("q=%.40q: the %s selects %v of %d, the filter line's matcher %v of %d", q, srv.name, got, list.Total, want, n)
				}
			}
		}
	}
}
