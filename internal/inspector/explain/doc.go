// Package explain turns what a controller's endpoint (or log) says about a
// key or a controller into verdicts and sentences. It is pure: data in,
// words out, on the server's clock. It does no I/O and imports no
// transport (inspector/cluster finds the pods and opens the
// port-forwards, inspector/describe reads the object; TestNoTransport holds the line), so
// that the CLI, the UI and `why` say a state the same way, and a viewer
// can explain again at a later time without a round trip.
//
//	d, err := describe.Describe(ctx, session, "widget", "default/my-widget", objects) // a *describe.Description
//	if err != nil {
//		return err
//	}
//	// The UI's countdowns move between reads: explain again at the server's time now.
//	dg := explain.Explain(explain.Input{
//		Key: d.Key.Key, Controller: d.Controller, Object: d.Object, Fleet: d.Fleet, Now: serverNow,
//	})
//	fmt.Println(dg.Summary) // Backing off 4m12s after 17 consecutive failures: per-item exponential, ...
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
//	d := explain.DiagnoseController(c, list.Source, groups, serverTime) // c and list from v1/controllers, groups from v1/errors
//	fmt.Println(d.Line()) // outage — 100 keys backing off since 08:01:00 on one transient error (…)
//
// # Wording
//
// Every duration, time of day, count and cut it writes is internal/text's
// (text.FormatDuration, text.Countdown, text.TimeOfDay, text.Plural,
// text.OneLine), the one way every client writes them, so a value reads the
// same in a table, a sentence and the UI. What is judgement stays here:
// NextRetryText (and NextRetryCompact, for a narrow column) says what a
// key's next retry is by its state, KeyRow is a key's cells as `get` and
// top's table print them, and ReadFacts what a read of a log understood.
package explain
