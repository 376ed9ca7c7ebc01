// Package ui is the terminal UI of `kubectl backoff top`: a live table of a
// controller's keys and their backoff, a detail view that explains one key,
// an incident view that groups keys by error, and force-forget actions. When
// discovery found several instrumented pods, it first offers them in a
// picker (Options.Pods) and attaches to the one picked (Options.Attach).
//
//	s, err := inspector.Direct("http://127.0.0.1:8082", nil)
//	if err != nil {
//		return err
//	}
//	defer s.Close()
//	return ui.Run(ctx, ui.Options{Session: s, Refresh: time.Second})
//
// The model holds only state. Every fetch and every action runs in a tea.Cmd
// that calls package inspector and returns a typed message. A refresh costs
// what fits on the screen: one v1/controllers call (counts, limiters and the
// retry forecast, counted by the endpoint) and one page of v1/keys the size
// of the visible rows — never the whole key set.
package ui
