package demo

import (
	"net/http"
	"time"

	"github.com/kubectl-backoff/kubectl-backoff/instrument"
)

// FirstOutage is the world the clients' golden tests share: the demo with
// --seed 7 (its defaults otherwise), replayed for 70s from 08:00:00 UTC on
// 2026-11-30 — a minute into its first outage. One definition, so that the
// CLI's and the UI's goldens show the same world.
//
//	r, err := demo.FirstOutage()
//	defer r.Close()
//	srv := httptest.NewServer(r.Handler())
func FirstOutage() (*Replay, error) {
	opts := DefaultOptions()
	opts.Seed = 7
	return newReplay(opts, time.Date(2026, 11, 30, 8, 0, 0, 0, time.UTC), 70*time.Second)
}

// Handler serves the replay's probes as the endpoint does. Its forgets are
// logged to the controllers' log (Options.ControllerLog) at the replay's
// time, as the demo logs them, or discarded without one (they would
// otherwise log to stderr).
func (r *Replay) Handler() http.Handler {
	log := r.env.opts.forgetLogger(r.Clock.Now)
	return instrument.NewHandler(instrument.HandlerOptions{Registry: r.Registry, Logger: &log})
}
