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
// api.SourceLogs and Estimated set. Failures count the consecutive errors
// since the log read began; delays and retry times assume controller-runtime's
// default limiter (DefaultLimiter, 5ms·2^(n−1) capped at 1000s); the class of
// an error is read from its words (Classify). Success is not logged at the
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
