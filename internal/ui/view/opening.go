package view

import tea "charm.land/bubbletea/v2"

// Opening is the view the UI opens on, as the options choose it, and its
// first read: the fleet from Prometheus (Options.Fleet), else `top --for`
// (Options.For), else the pod picker when there is no session and pods to
// pick from, else the table. The picker reads nothing (nil): its refreshes
// start once a pod is attached. The first read of the table and of `top
// --for` is sent from a copy of the view, as Bubble Tea's Init sends it
// (Init's model is not kept): their answers set their state.
func Opening(c *Common) (View, tea.Cmd) {
	opts := c.Opts
	switch {
	case opts.Fleet != nil:
		return NewFleet(c, *opts.Fleet).Refresh()
	case opts.For != nil:
		f := NewFor(c, *opts.For)
		sent := f
		return f, sent.Refresh()
	case opts.Session == nil && len(opts.Pods) > 0:
		return NewPicker(c, opts.Pods), nil
	}
	t := NewTop(c)
	sent := t
	return t, sent.Refresh()
}
