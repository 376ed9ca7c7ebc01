package view

import (
	"slices"

	"github.com/kubectl-backoff/kubectl-backoff/instrument/api"
	"github.com/kubectl-backoff/kubectl-backoff/internal/inspector/explain"
	"github.com/kubectl-backoff/kubectl-backoff/internal/ui/widget"
)

// Forecast sets what a dialog over the detail says of a next failure of
// its key from the controller the detail read with it, not the top view's
// last overview: the bucket's debt moves ten tokens a second, and two
// reads a moment apart said "100 tokens owed" in the detail and "101"
// in the dialog over it. It leaves act alone (false) when it is not the
// detail's key, or the detail has not read its controller.
func (d Detail) Forecast(act *widget.Action) bool {
	c := d.input.Controller
	if act.Bulk() || c == nil || act.Controller != d.Controller || act.Key != d.Key {
		return false
	}
	act.Buckets = nil
	if slices.ContainsFunc(c.Limiter.Components, func(lc api.LimiterComponent) bool { return lc.Name == api.SourceBucket }) {
		act.Buckets = []string{act.Controller}
	}
	act.NextWait = explain.NextFailureWait(c)
	return true
}
