package view

import tea "charm.land/bubbletea/v2"

// Opening is the view the UI opens on, as the options choose it, and its
// first read: the fleet from Prometheus (Options.Fleet), else `top --for`
// (Options.For), else the pod picker when there is no session and pods to
// pick from, else the table. The picker reads nothing (nil): its refreshes
// start once a pod is attached. The first read is sent from the view
// returned, the one the root keeps (Init only sends the command): the
// table takes an answer only for the read it last sent, so a read sent
// from a copy was dropped and the first page waited for the clock.
func Opening(c *Common) (View, tea.Cmd) {
	opts := c.Opts
	switch {
	case opts.Fleet != nil:
		return NewFleet(c, *opts.Fleet).Refresh()
	case opts.For != nil:
		f := NewFor(c, *opts.For)
		first := f.Refresh()
		return f, first
	case opts.Session == nil && len(opts.Pods) > 0:
		return NewPicker(c, opts.Pods), nil
	}
	t := NewTop(c)
	first := t.Refresh()
	return t, first
}
