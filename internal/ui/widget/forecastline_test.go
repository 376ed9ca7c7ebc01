package widget

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/kubectl-backoff/kubectl-backoff/inspector"
	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
)

// A retry whose second passed after the overview counted it is due now, as
// its row says ("due"), until the next overview: the forecast keeps it in
// its first cell instead of saying "none due" beside that row.
func TestForecastLineKeepsOverdueRetries(t *testing.T) {
	s := NewStyles(true)
	at := time.Date(2026, 12, 7, 5, 0, 0, 0, time.UTC)
	fc := make([]int, api.ForecastSeconds)
	fc[2] = 1 // due 2s after the count
	ov := &inspector.Overview{ServerTime: at, Controllers: []api.Controller{{Name: "naive", Pending: 1, Forecast: fc}}}
	for _, later := range []time.Duration{0, 5 * time.Second} {
		line := ansi.Strip(ForecastLine(&s, ov, "", at.Add(later), 160, false))
		if strings.Contains(line, "none due") || !strings.Contains(line, "1 due") {
			t.Errorf("%v after the count: %q; want the retry counted due", later, line)
		}
	}
}
