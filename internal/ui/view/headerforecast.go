package view

import (
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/widget"
)

// forecastLine is the header's forecast line: the keys of the controllers
// shown falling due over the next 60s.
func (h TopHeader) forecastLine() string {
	var now time.Time
	if h.M.Overview != nil {
		now = h.C.ServerNow(h.M.Overview.ServerTime, h.M.fetchedAt)
	}
	return widget.ForecastLine(&h.C.Styles, h.M.Overview, h.M.Controller, now, h.C.Width, h.C.LogStale())
}
