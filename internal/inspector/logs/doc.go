// Package logs rebuilds per-key backoff from a controller's log, for
// controllers that do not import the instrument. It reads the failure lines
// of controller-runtime ("Reconciler error", and at --zap-log-level=5
// "Reconciling", "Reconcile successful", "Reconcile done, requeueing after …"
// and the priority queue's "workqueue_items"), Flux ("Reconciliation failed
// after …, next try in 1m0s"), cert-manager ("re-queuing item due to error
// processing"), client-go controllers written from sample-controller ("error
// syncing 'ns/name'"), prometheus-operator ("Sync \"ns/name\" failed"),
// kube-controller-manager's deployment controller, Crossplane providers'
// managed reconcilers at --debug ("Cannot observe external resource", whose
// Requeue: true goes through their 1s..60s limiter with no "Reconciler
// error"; "External resource is up to date" ends a streak), and the instrument's own
// "forgot backoff" line (a `kubectl backoff forget` through an instrumented
// controller's endpoint: the keys it names have their counts reset and,
// with requeue, their retries released), and answers the
// endpoint's read API from them, so that a log source is an
// inspector.Session like any other:
//
//	store := logs.NewStore(logs.Options{Live: true})
//	stop, err := store.Follow(ctx, logs.StreamConfig{
//		Clientset: cs, Target: target, Namespace: "my-system", // every replica, the last hour
//	})
//	if err != nil {
//		return err
//	}
//	s := inspector.InProcessSession(stop, inspector.NamedHandler{Name: "logs: deploy/my-operator", Handler: store.Handler()})
//	defer s.Close()
//	list, err := s.Keys(ctx, inspector.KeyQuery{States: []api.State{api.StateBackoff}})
//
// A saved log reads the same way: store.Read(ctx, file), with Live false so
// that "now" is the log's last line. A pipe may carry either: with Live and
// Options.DatedAfter, a log whose newest line is older than that when read
// is judged as a saved one (Stats.EndsAt, api.ListSource.EndsAt).
//
// What it reconstructs is labelled as such: every key has Source
// api.SourceLogs, and Estimated unless its line stated the next retry
// (Record.RetryIn: Flux's "next try in"). Failures count the consecutive
// errors since the log read began; delays and retry times are estimated
// from what the log shows: the per-item exponential of controller-runtime's
// and client-go's defaults (DefaultLimiter, 5ms·2^(n−1) capped at 1000s, or
// the project's own where its dialect knows it: Record.Limiter),
// max-ed with a token bucket (DefaultBucket, 10 qps, burst 100) replayed
// over the controller's failure lines when the controller runs one (a
// client-go work queue, or retries that come at the bucket's pace, as the
// classic queue's do in an outage), never shorter than the spacing of
// the key's own failures less a second of lateness, and never over twice a
// steady one (estimate.go says why). The class of an error is read from its words
// (Classify). A line whose time could not be read counts, but moves no
// time: the key's times it would set stay absent. Success is not logged at the
// default verbosity, so a key that goes quiet after an error past its
// expected retry is api.StateUnknown, never idle; its failures are those
// logged, not known to be consecutive (api.ListSource.Verbose is false),
// and why an attempt ran is inferred from its retry's expected time:
// api.TriggerSooner or api.TriggerLate, never stated as an event or a
// retry. A log with V(5) lines shows successes, and says so. Memory is bounded as in
// the instrument's store (Options.MaxKeys).
//
// The dialects are data (dialects/builtin.yaml, embedded, loaded by the
// loader of --dialect FILE and read by the same reader, dialectread.go):
// per project, which messages mean a failure (and a success or requeue
// where it logs them), where the key, controller and error are, whether
// the next retry is stated (Flux: Record.RetryIn, exact) or estimated, and
// the queue's limiter where the project sets its own (Record.Limiter,
// Record.ClientGoQueue); which lines are worth parsing is derived from
// them (builtin.go's markersOf). Adding a project is one entry there and
// one excerpt of its real log under testdata/wild. A dialect's lines are
// read in any format (see format): zap JSON and console, klog and klogr
// text, log/slog, logrus, go-kit; behind kubectl --prefix/--timestamps,
// stern's names, a container name, the kubelet's CRI files, Docker's
// json-file driver or journald, in a Markdown quote or a sentence's
// inline code (inlinecode.go), with a TTY's colour codes (prefix.go's
// collected), hard-wrapped by a terminal when the log
// shows its width (widthwrap.go), a logfmt value cut open by a paste
// continued on the next lines (logfmtcont.go); TestPasteDamage reads every
// training excerpt through each such mark.
//
// Behind the named dialects stands the generic reader of the work-queue
// idiom (generic.go): an error or warning line that says a sync,
// reconcile, handle or process failed and will be retried, requeued or
// re-added (or that the key was dropped), naming exactly one key. Its
// records say so (dialect "generic (work-queue idiom)", client-go's default
// limiter assumed, api.Key.LogLine the line read), and it never makes a
// key of a line that merely says "error": leader elections, webhook TLS,
// panics and start-up retries yield none (testdata/wild's negatives). A
// team's own controller is taught in a dialect file (dialectfile.go,
// Options.Dialects, --dialect FILE), in the built-ins' format with every
// field theirs, read after the built-in dialects and before the generic
// reader. A line whose words do not say the idiom but that names one key
// and states an error is a candidate: its template (template.go's miner) is
// read as failures when one key's lines in it come at growing gaps, as a
// rate limiter's delays, and never when a key's come at equal ones, a timed
// poll (evidence.go); each generic record says what decided
// (Record.Evidence, api.Key.LogEvidence), as does a dialect's failure
// whose key came from another line of its attempt (keybefore.go: a
// "Reconciler error" whose logger dropped the request takes the key of the
// reconciler's own line just before it, which logged the same error).
// Options.ExplainLines hears how
// each line that
// yielded something or looked like a failure was read, and why
// (--explain-lines).
//
// A saved log is parsed on Options.Workers goroutines and applied to the
// store in the log's order (parallel.go), its answers those of a read line
// by line (Workers 1, as a live log is read); a line that holds no marker
// of any loaded dialect is skipped in one pass before it is decoded
// (prefilter.go).
//
// A reader says what it understood (Store.LogRead): the lines read, the
// records per dialect, and the lines that look like failures but could not
// be read, with one of them. Times are never invented (times.go): a line's
// time it cannot read is left zero (unknown) and counted; a time before
// 2000 or over a day past the reading clock is unknown too, and counted
// (LogRead.Implausible); klog's year-less headers take the year of the
// log's dated lines, else the clock's, counted as assumed
// (LogRead.YearAssumed); the log's end is its latest plausible time, of
// any line, not only of a record (logend.go: the lines the prefilter
// skips are timed at each chunk's end, a stream's at each read); and a
// line older than its key's newest takes its place in the key's history in
// time order.
package logs
