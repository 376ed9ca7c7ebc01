package demo

import (
	"net/http"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// metricsPath is where the demo serves its probes' series.
const metricsPath = "/metrics"

// withMetrics serves reg at /metrics and everything else with h: the demo
// is then one scrape target, as a controller whose metrics server serves
// the probe's series, so that a Prometheus pointed at two demos shows the
// fleet view two clusters.
func withMetrics(reg interface {
	prometheus.Registerer
	prometheus.Gatherer
}, h http.Handler) http.Handler {
	mux := http.NewServeMux()
	mux.Handle(metricsPath, promhttp.HandlerFor(reg, promhttp.HandlerOpts{Registry: reg}))
	mux.Handle("/", h)
	return mux
}
