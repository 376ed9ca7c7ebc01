// Package logs rebuilds per-key backoff from a controller-runtime
// controller's log, for controllers that do not import the instrument. It
// reads the "Reconciler error" lines every controller-runtime controller
// writes (and, at --zap-log-level=5, "Reconciling", "Reconcile successful",
// "Reconcile done, requeueing after …" and the priority queue's
// "workqueue_items"), and answers the endpoint's read API from them, so that
// a log source is an inspector.Session like any other:
//
//	store := logs.NewStore(logs.Options{Live: true})
//	stop, err := store.Follow(ctx, logs.StreamConfig{
//		Clientset: cs, Target: target, Namespace: "my-system", // every replica, the last hour
//	})
//	if err != nil {
//		return err
//	}
//	s := store.Session("logs: deploy/my-operator", stop)
//	defer s.Close()
//	list, err := s.Keys(ctx, inspector.KeyQuery{States: []api.State{api.StateBackoff}})
//
// A saved log reads the same way: store.Read(ctx, file), with Live false so
// that "now" is the log's last line.
//
// What it reconstructs is labelled as such: every key has Source
// api.SourceLogs, and Estimated unless its line stated the next retry
// (Record.RetryIn: Flux's "next try in"). Failures count the consecutive
// errors since the log read began; delays and retry times are estimated
// from what the log shows: the per-item exponential of controller-runtime's
// and client-go's defaults (DefaultLimiter, 5ms·2^(n−1) capped at 1000s),
// max-ed with a token bucket (DefaultBucket, 10 qps, burst 100) replayed
// over the controller's failure lines when the controller runs one (a
// client-go work queue, or retries that come at the bucket's pace, as the
// classic queue's do in an outage), and never shorter than the spacing of
// the key's own failures. The class of an error is read from its words
// (Classify). A line whose time could not be read counts, but moves no
// time: the key's times it would set stay absent. Success is not logged at the
// default verbosity, so a key that goes quiet after an error past its
// expected retry is api.StateUnknown, never idle. Memory is bounded as in
// the instrument's store (Options.MaxKeys).
//
// Parse reads one line in any format users run: zap JSON (epoch or ISO
// timestamps), zap console and klog text, from controller-runtime v0.25 back
// to the releases that logged `request` (v0.6 and before) or
// `reconciler kind` (v0.7–v0.10), with or without the kubelet's timestamp
// (kubectl logs --timestamps) and kubectl's --prefix.
package logs
