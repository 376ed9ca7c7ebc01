// Package describe reads everything known about a key over an
// inspector.Session — the key, its controller, the soonest retries of its
// fleet and the object behind it, with the object's Events — and hands it
// to inspector/explain for a plain-language diagnosis. It is `kubectl
// backoff describe`, the TUI's key detail and `get`'s controller lines.
//
//	s, objects, err := describe.Attach(ctx, inspector.AttachConfig{
//		REST: restConfig, Target: target, Namespace: "my-system",
//	})
//	if err != nil {
//		return err
//	}
//	defer s.Close()
//	d, err := describe.Describe(ctx, s, "widget", "default/my-widget", objects)
//	if err != nil {
//		return err
//	}
//	fmt.Println(d.Diagnosis) // Backing off 4m12s after 17 consecutive failures: per-item exponential, ...
//
// The words are the inspector/explain package's: Describe reads and
// explain.Explain judges, DiagnoseControllers reads v1/controllers and
// v1/errors and explain.DiagnoseController judges each controller. That
// package is pure (no transport), so a viewer can explain again later:
//
//	ds, err := describe.DiagnoseControllers(ctx, s, "")
//	for _, d := range ds {
//		fmt.Println(d.Line()) // outage — 100 keys backing off since 08:01:00 on one transient error (…)
//	}
//
// An ObjectReader reads the object behind a key from the API server (or an
// in-process store's Fetch, the demo's): its status as objstatus judges
// it, who changed its spec, and its newest Events.
package describe
