// Package inspector is the library behind `kubectl backoff`: it finds a
// controller's pods, opens port-forwards to their instrument endpoints (kept
// alive across restarts and rollouts), calls the endpoints, reads the object
// behind a key and its events from the API server, and turns it all into a
// plain-language diagnosis. It never prints: everything it returns is data.
//
//	target, err := inspector.ParseTarget("deploy/my-controller", "")
//	if err != nil {
//		return err
//	}
//	s, objects, err := inspector.Attach(ctx, inspector.AttachConfig{
//		REST: restConfig, Target: target, Namespace: "my-system",
//	})
//	if err != nil {
//		return err
//	}
//	defer s.Close()
//	d, err := s.Describe(ctx, "widget", "default/my-widget", objects)
//	if err != nil {
//		return err
//	}
//	fmt.Println(d.Diagnosis) // Backing off 4m12s after 17 consecutive failures: per-item exponential, ...
//
// Without a cluster, Direct talks to one endpoint address, e.g. the demo's:
//
//	s, err := inspector.Direct("http://127.0.0.1:8082", nil)
//
// # Replicas
//
// A Session queries every pod of the target. A replica whose controllers are
// all inactive is a standby (leader election) and is reported as such; the
// keys of several active replicas (shards) are merged, each naming its pod.
//
// # Explain
//
// Explain is a pure function from a key's state (with its controller's
// limiter, the object's status and a summary of the controller's other keys)
// and the server's time to a Diagnosis: the verdict in words, the delay and
// which limiter chose it, the next retry and the one after it, whether the
// user's latest edit has been observed, and the anti-patterns seen — the same
// error on every attempt, hot loops, retry herds, an empty token bucket.
// An error is judged by its class: only a permanent one (or an unknown one
// failing long with no change to the object) is called permanent; a
// transient one that lasts is an outage the backoff rides out.
//
// # A controller as a whole
//
// DiagnoseController does for a controller what Explain does for a key,
// from its counts, limiter, forecast and error groups: one line for a
// header or above a table, and a full form for `describe --controller`.
//
//	ds, err := s.DiagnoseControllers(ctx, "")
//	for _, d := range ds {
//		fmt.Println(d.Line()) // outage — 100 keys backing off since 08:01:00 on one transient error (…)
//	}
//
// # Durations
//
// FormatDuration (a measured duration), Countdown, Ago and NextRetryText
// (FormatSeconds: whole seconds, rounded down; NextRetryCompact for a
// narrow column) are the one way every client prints a duration, so a
// value reads the same in a table, a sentence and the UI.
package inspector
