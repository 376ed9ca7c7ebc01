package ui

import (
	"context"
	"slices"
	"sync"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/view"
)

// bigKeys is the key count behind the endpoint for the budget checks.
var bigKeys = 100_000

func init() {
	if raceEnabled {
		bigKeys = 10_000
	}
}

// refreshBudget is the most a top-view refresh may read, whatever the key count.
const refreshBudget = 64 << 10

var (
	bigOnce    sync.Once
	bigFixture *fixture
)

// big is a shared endpoint holding 100,000 keys (built once: it takes a while).
func big(tb testing.TB) *fixture {
	bigOnce.Do(func() { bigFixture = newFixture(&noCleanup{tb}, bigKeys, false) })
	return bigFixture
}

// noCleanup keeps the shared fixture's server up for the whole run.
type noCleanup struct{ testing.TB }

func (noCleanup) Cleanup(func()) {}

// refreshed is the top view at w×h after one real refresh against f, and
// the bytes that refresh read.
func refreshed(tb testing.TB, f *fixture, w, h int) (Model, int64) {
	m := newModel(context.Background(), view.Options{Session: f.session(tb)})
	next, _ := m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	m = next.(Model)
	m.setTop(func(t *view.Top) { t.Sort = slices.Index(view.Sorts, api.SortNext) }) // any order reads the same bytes
	before := f.bytes.Load()
	msg := m.refreshTop()().(view.ReadMsg).Msg.(view.RefreshedMsg)
	n := f.bytes.Load() - before
	if msg.Err != nil {
		tb.Fatal(msg.Err)
	}
	next, _ = m.Update(msg)
	return next.(Model), n
}

func TestRefreshBytesBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 100,000 keys")
	}
	f := big(t)
	for _, sz := range [][2]int{{80, 24}, {120, 30}, {200, 50}, {300, 100}} {
		m, n := refreshed(t, f, sz[0], sz[1])
		if m.tbl().Page.Total != bigKeys {
			t.Fatalf("endpoint holds %d keys, want %d", m.tbl().Page.Total, bigKeys)
		}
		if n > refreshBudget {
			t.Errorf("%dx%d: a refresh read %d bytes, over the %d budget", sz[0], sz[1], n, refreshBudget)
		}
		t.Logf("%dx%d: %d rows, %d bytes per refresh with %d keys", sz[0], sz[1], len(m.tbl().Page.Items), n, bigKeys)
	}
}

func BenchmarkView(b *testing.B) {
	f := big(b)
	for _, sz := range [][2]int{{80, 24}, {120, 30}, {200, 50}} {
		m, n := refreshed(b, f, sz[0], sz[1])
		b.Run(sizeName(sz), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = m.View()
			}
			b.ReportMetric(float64(n), "B/refresh")
		})
	}
}

// BenchmarkRefresh is one whole refresh (three calls) against 100,000 keys.
func BenchmarkRefresh(b *testing.B) {
	f := big(b)
	m, _ := refreshed(b, f, 200, 50)
	before := f.bytes.Load()
	for b.Loop() {
		_ = m.refreshTop()()
	}
	b.ReportMetric(float64(f.bytes.Load()-before)/float64(b.N), "B/refresh")
}

func sizeName(sz [2]int) string {
	return itoa(sz[0]) + "x" + itoa(sz[1])
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}
