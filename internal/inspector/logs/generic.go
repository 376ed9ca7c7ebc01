package logs

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// genericName is the dialect of a line read by the generic reader of the
// work-queue idiom, behind every named dialect.
const genericName = "generic (work-queue idiom)"

// The generic reader reads what almost every controller on client-go's work
// queue logs when a key fails, in its own words: "failed on KEY, will
// retry" (processNextWorkItem's HandleError then AddRateLimited), or "gave
// up on KEY" (handleErr after maxRetries: Forget, no requeue). Precision
// comes before recall, because a false failing key is worse than a miss: a
// line is read only when all of these hold —
//
//   - it is logged at error or warning level, or carries an error field;
//   - its message says a sync, reconcile, handle or process failed
//     (failPhrase), or names that verb and then the error word ("Reconcile
//     PyTorchJob error", "syncHandler error": batch13/1302);
//   - and that the key will be retried, requeued or re-added (retryPhrase),
//     or was dropped (dropPhrase); "Error syncing" is itself the idiom's
//     retry (kube-controller-manager, Longhorn);
//   - and it names exactly one key: a key, obj, request or kind-named field,
//     namespace and name fields, or one namespace/name in the message
//     before the error (a quoted, bracketed or bare ns/name; "/name" for a
//     cluster-scoped key).
//
// A line read only because it opens with the failure is not read by its
// words when it carries controller-runtime's reconcileID: it was logged
// inside Reconcile, whose own outcome controller-runtime logs
// (reconcileidline.go).
//
// Its controller is the line's controller field, else its logger, else a
// "NAME: " before the message, else the file that logged it (klog's
// stateful_set.go), else the kind the message names before the key
// ("Error syncing Longhorn node ns/x": "Longhorn node"). Its limiter is
// assumed to be client-go's default. A line none of this fits is not a
// record: leader elections, webhook TLS, panics and start-up errors say
// none of it.
var (
	failPhrase = regexp.MustCompile(`(?i)\b(?:errors?|fail(?:ed|ure)?|unable|could not|cannot|can't)\b(?: \w+)?? (?:(?:to|while|when|in) )?(?:sync|reconcil|handl|process|updat|provision|ensur|apply)\w*|\berrors? during (?:\w+ )?(?:sync|reconcil|handl|process)\w*|\b(?:sync\w*|reconcil\w*|handl\w*|process\w*)\b[^:]{0,80}?\bfailed\b|\b(?:sync|reconcile|handle|process)(?:handler)?\b(?: \w+)? errors?\b|^(?:\w+ ){0,3}?work item failed$`)
	// errorGerund: a message opening "Error VERBing" (generic).
	errorGerund = regexp.MustCompile(`^(?i:error) [a-z]+ing\b`)
	// coreVerb: the work queue's own verbs. A message that opens with a
	// failure to do something else ("Error updating ns/x: conflict") may be
	// an attempt's inner cause: it is read only with retry or drop words.
	// A message that opens with "[KIND] work item failed" is the work
	// queue's own words too (kube-controller-manager's serviceaccounts and
	// resourceclaim controllers, the key in an item field).
	coreVerb = regexp.MustCompile(`(?i)sync|reconcil|handl|process|work item failed`)
	// retryPhrase: "retrying", "will retry", "retry it", "requeuing",
	// "re-queuing", "re-adding item to queue".
	retryPhrase = regexp.MustCompile(`(?i)\bretry(?:ing)?\b|\bre-?e?n?queu|\bre-?add(?:ing|ed)?\b`)
	// dropPhrase: the key was given up on; a message opening with
	// "Permanent failure" says the handler will not retry it
	// (kubeflow/pipelines' persistence agent: log.Errorf then Forget, beside
	// its "Transient failure" before AddRateLimited).
	// "… and this is the retry last attempt" says the attempt that failed
	// was the last the handler makes (the Java Operator SDK's, batch18).
	dropPhrase = regexp.MustCompile(`(?i)\bdropp(?:ing|ed)\b|\bgiving up\b|\bgave up\b|retry budget exceeded|^permanent failure\b|\bis the (?:retry )?(?:last|final) (?:retry )?attempt\b`)
	// retryIn: a stated delay, a Go duration after the retry words
	// ("Retrying in 2m40s", "will retry after 30s", "requeuing in 1m0s"):
	// the handler's own AddAfter or limiter said it, so the next retry is
	// exact, not estimated. Words ("in 5 seconds") are not a Go duration
	// and stay unread: such lines are timed polls as often as retries.
	retryIn = regexp.MustCompile(`(?i)\b(?:retry(?:ing)?|re-?queu(?:e|ing)|try again)\s+(?:in|after)\s+((?:\d+(?:\.\d+)?(?:ns|us|µs|ms|h|m|s))+)\b`)
	// retryCount: a stated count ("retry count: 11", "retry #3").
	retryCount = regexp.MustCompile(`(?i)\bretry count:? ?(\d+)|\bretry #(\d+)`)
	// statedFailures: the queue's count of a key's earlier failures, said
	// beside its retry ("Retrying syncing claim KEY, failure 16",
	// "because failures 3 < threshold 5"): handlers print NumRequeues
	// before AddRateLimited, so with this failure the key has N+1.
	statedFailures = regexp.MustCompile(`(?i)\bfailures?[ =:#]+(\d+)\b`)
	// nsName is a cache key in a message: namespace/name (a DNS label, a
	// DNS subdomain), or /name.
	nsName = regexp.MustCompile(`^(?:[a-z0-9](?:[-a-z0-9]{0,61}[a-z0-9])?)?/[a-z0-9](?:[-a-z0-9.]{0,251}[a-z0-9])?$`)
	// apiVersion is a name part that is an API version ("apps/v1"), not an
	// object.
	apiVersion = regexp.MustCompile(`^v\d+(?:(?:alpha|beta)\d+)?$`)
)

// genericMarkers are bytes every line the generic reader reads holds one
// of (the retry and drop phrases, case aside), so that the rest of a log
// is skipped before any parsing.
var genericMarkers = [][]byte{[]byte("etry"), []byte("ETRY"), []byte("queu"), []byte("re-add"), []byte("ropp"), []byte("giving up"), []byte("gave up"),
	// The idiom without retry words opens with a failure to sync (or
	// reconcile, handle, process) a key.
	[]byte("ail"), []byte("rror"), []byte("nable"), []byte("ould not"), []byte("annot"), []byte("an't")}

// generic reads msg (the line's message, "Unhandled Error"'s err in its
// place) as the work-queue idiom, when no named dialect did. A line is a
// key's failed attempt when it names one key and carries an error, and
// its structure says the attempt failed: the idiom's retry or drop words
// after a failure phrase (the rule above), or — the idiom without retry
// words, client-go's HandleError(fmt.Errorf("failed to sync %q: %v", key,
// err)) before AddRateLimited — a message that opens with the failure
// phrase (after an optional "NAME: "), names the key before the error's
// ": ", at error or warning level; or one that opens with the drop or
// requeue word before the key ("Dropping job<ns/x> out of the queue: ERR",
// "reenqueuing KIND ns/x" with the error in a reason field).
func (f *fields) generic(msg string) (Record, bool) {
	fail := failPhrase.FindStringIndex(msg)
	drop := dropPhrase.FindStringIndex(msg)
	retry := retryPhrase.FindStringIndex(msg)
	// The shape: what the message opens with.
	opens := opening(msg)
	keyFirst := false // "KEY failed with : ERR" (generickey.go)
	if fail == nil {
		fail = keyFailedWith(msg, opens)
		keyFirst = fail != nil
	}
	if fail == nil && retry != nil {
		fail = f.gerundRetry(msg, opens, retry[0])
	}
	objectLead := false // "Unable to VERB NOUN; …" NOUN="ns/x" err=… (gerundfield.go)
	if fail == nil && f.err != "" {
		fail = f.unableObjectField(msg, opens)
		objectLead = fail != nil
	}
	subject := ""
	if fail != nil {
		subject = controllerSubject(msg, opens, fail[0])
	}
	lead := fail != nil && (keyFirst || objectLead || coreVerb.MatchString(msg[fail[0]:fail[1]])) && (fail[0] <= opens || subject != "" || keyFirst || failAfterKey(msg, opens, fail[0]))
	// "rollout syncHandler error: ERR" namespace=ns rollout=x (subjectfield.go)
	subjLead := !lead && f.subjectLead(msg, opens, fail) && coreVerb.MatchString(msg[fail[0]:fail[1]])
	lead = lead || subjLead
	dropLead := drop != nil && drop[0] == opens
	rqEnd, rqErr, rq := requeueErr(msg, opens) // "requeuing ns/x, err ERR" (requeueerr.go)
	requeueLead := retry != nil && retry[0] == opens && (f.err != "" || f.reason != "" || rq)
	counted, countedOK := countedRequeue(msg, opens, retry) // "re-queuing … KEY; retry #: N" (countedrequeue.go)
	countedOK = countedOK && !requeueLead && fail == nil && drop == nil
	requeueLead = requeueLead || countedOK
	if fail == nil && !dropLead && !requeueLead {
		if retry != nil && drop == nil {
			return f.countLine(msg)
		}
		if r, ok := f.causeLine(msg); ok || drop != nil || retry != nil {
			return r, ok
		}
		return f.namedFieldCandidate(msg) // "Error removing … from PVC" PVC="ns/x" (namedfield.go)
	}
	// From here the line looks like a failure: a miss says why.
	miss := func(why string) (Record, bool) { return Record{NotRead: why, Tried: msg}, false }
	errField := f.err
	if requeueLead && errField == "" {
		errField = f.reason
	}
	rqQueue := ""
	if rq && errField == "" {
		errField = rqErr
		if strings.Contains(msg[opens:rqEnd], `"`) {
			errField, rqQueue = requeueQueue(rqErr) // GCE's copy (requeueerr.go)
		}
	}
	// Go's standard log writes no level: a line that says it failed and
	// will retry (or gave up) is not an info line for want of one.
	if f.bare && !lead && !dropLead {
		return miss("is a message alone (no time, level or caller), read only when it opens with the failure before its key and error")
	}
	// What its words lack: a line that names one key and carries an error
	// is then a candidate, for the log's structure to decide (evidence.go).
	lacks, quiet := "", false
	if strings.Contains(strings.ToLower(msg), "skipping") {
		return miss("says it is skipping, not retrying (the kubelet's pod sync)")
	}
	if !f.severe && errField == "" && !(f.noLevel && (drop != nil || retry != nil)) && !(f.bare && lead) && !countedOK {
		what := msg
		if fail != nil {
			what = msg[fail[0]:fail[1]]
		}
		level := "at info or debug level"
		if !f.leveled {
			// The format read no level: perhaps its level word is part of
			// the message as this format reads it ("ERR …").
			level = "at no level this format reads (a level word in the message is not read as one)"
		}
		lacks, quiet = "says "+strconv.Quote(what)+" but "+level+", with no error field", true
		if f.bare || fail == nil {
			return miss(lacks)
		}
	}
	idiom := fail != nil && strings.HasPrefix(strings.ToLower(msg[fail[0]:]), "error syncing")
	said := drop != nil || idiom || retry != nil
	if !said && !lead && lacks == "" {
		phrase := msg[fail[0]:fail[1]]
		lacks = "says " + strconv.Quote(phrase) + " but not that it will retry, requeue or re-add, nor that it gave up, and does not open with it"
		if fail[0] <= opens && !keyFirst && !coreVerb.MatchString(phrase) {
			// It does open with it: what it lacks is the handler's verb.
			lacks = "says " + strconv.Quote(phrase) + " but not that it will retry, requeue or re-add, nor that it gave up; it opens with it, " +
				"but a failure without those words is read only as a failure to sync, reconcile, handle or process"
		}
	}
	// The key is named where the line says what failed, before its error.
	start := len(msg)
	for _, at := range [][]int{fail, drop, retry} {
		if at != nil && at[0] < start {
			start = at[0]
		}
	}
	if lead || dropLead || requeueLead {
		start = opens
	}
	budgeted := false // a "retry: N/M" count (kindname.go)
	// givenUpAt is the count a give-up line states (with this failure),
	// which entry.gaveUp keeps; put on the record only once its words have
	// read it as a failure: a count never makes a give-up line one.
	givenUpAt := 0
	r := Record{What: ErrorLine, At: f.at, Dialect: genericName, ClientGoQueue: true, GaveUp: drop != nil, Error: errField}
	head := msg[start:]
	if i := strings.Index(head, ": "); i >= 0 {
		head = head[:i]
	}
	if rq {
		head = msg[start:rqEnd]
	}
	keyAt := -1
	key, at, ok := messageKey(head)
	if ok && key == syntheticItem {
		return miss(syntheticItemWhy) // no object's key (synthetic.go)
	}
	if !ok && !rq && (lead || dropLead) {
		// "Sync failed: Will re-queue storage \"KEY\": ERR" (retryclause.go)
		if k, kAt, found := retryClauseKey(msg, start+len(head), retry); found {
			key, at, ok = k, kAt-start, true
		}
	}
	if w, rest, _ := strings.Cut(head, " "); !ok && keyFirst && start == opens {
		// "monitoring-view failed with : ERR", "PV nfs-archive-02 failed
		// with : ERR": keyFailedWith took the unquoted name as the key
		// (bareClusterKey), after a kind's acronym or not.
		if bareClusterKey(w) {
			key, at, ok = w, 0, true
		} else if n, _, _ := strings.Cut(rest, " "); kindKeyFailedWithRE.MatchString(head+": x") && bareClusterKey(n) {
			key, at, ok = n, len(w)+1, true
		}
	}
	lit, litAt, litEnd, litOK := "", 0, 0, false
	if !ok && strings.IndexByte(msg[start:], '{') >= 0 {
		lit, litAt, litEnd, litOK = literalKey(msg[start:])
	}
	switch ns, name, byField := f.fieldKey(); {
	case byField:
		r.Namespace, r.Name = ns, name
	case ok:
		keyAt = start + at
		r.Namespace, r.Name = keyParts(key)
		if r.Error == "" {
			r.Error = errorAfter(msg, keyAt+len(key))
			if e, ok := bracketKeyError(msg, keyAt+len(key)); ok && r.Error == msg {
				r.Error = e
			}
			// "ns/x, sync failed ERR": the error follows the phrase.
			if fail != nil && fail[0] > keyAt && strings.HasSuffix(strings.ToLower(msg[:fail[1]]), "failed") && strings.HasPrefix(msg[fail[1]:], " ") && !strings.HasPrefix(msg[fail[1]:], " with") {
				r.Error = msg[fail[1]+1:]
			}
		}
	case litOK:
		// A key printed as a record ("ResourceID{name='x', namespace='ns'}":
		// literalkey.go); its error follows the retry or drop words.
		keyAt = start + litAt
		r.Namespace, r.Name = keyParts(lit)
		r.Error = orElse(r.Error, literalError(msg, start+litEnd, drop, retry))
	case f.objectRefKey(msg, &r): // kube-rs's "reconciler for object REF failed" (objectref.go)
	case subjLead:
		r.Namespace, r.Name = f.namespace, f.subjectField
	case f.soleKeyField() != "": // a cluster-scoped kind's field too (clusterfield.go)
		r.Namespace, r.Name = splitRef(f.soleKeyField())
	case lacks != "" && f.subjectField != "" && f.namespace != "":
		// A candidate's object in a field its message names (subjectfield.go).
		r.Namespace, r.Name = f.namespace, f.subjectField
	case f.namespaceIsKey(head):
		r.Name = f.namespace
	case fail != nil && kindNameOK(msg, fail[1]):
		name, at, _ := kindNameKey(msg, fail[1])
		keyAt, r.Name = at, name
		if r.Error == "" {
			r.Error = errorAfter(msg, at+len(name))
		}
	case f.eventKey != "":
		// The key of the event line just before, whose object the
		// message names (eventkey.go): the message is the error.
		r.Namespace, r.Name = splitRef(f.eventKey)
		if r.Error == "" {
			r.Error = msg
		}
	default:
		if lacks != "" {
			return miss(lacks)
		}
		return miss("names no one namespace/name before its error (" + strconv.Quote(head) + "), and no key field")
	}
	if countedOK {
		r.Error, r.Evidence = noErrorStated, countedRequeueEvidence(counted)
	}
	if r.Error == "" {
		r.Error = errorAfter(msg, start)
	}
	if f.bare && (keyAt < 0 || !strings.Contains(msg[keyAt:], ": ")) {
		return miss("is a message alone (no time, level or caller), and states no error after its key")
	}
	if countedOK {
		r.Retries = counted
	} else if m := retryCount.FindStringSubmatch(msg); m != nil {
		n, _ := strconv.Atoi(m[1] + m[2])
		r.Retries = n
	} else if n, ok := f.statedFailures(msg[:start+len(head)]); ok && drop == nil {
		r.Retries = n + 1
	} else if ok {
		givenUpAt = n + 1
	} else if n, end, ok := budgetedRetry(msg, start, start+len(head)); ok && drop == nil {
		r.Retries, budgeted = n, true
		if f.err == "" && keyAt >= 0 && end > keyAt {
			r.Error = errorAfter(msg, end)
		}
	}
	if m := retryIn.FindStringSubmatchIndex(msg); m != nil && drop == nil {
		if d, err := time.ParseDuration(msg[m[2]:m[3]]); err == nil && d > 0 {
			r.RetryIn, r.RetryWords = d, msg[m[0]:m[1]]
		}
	}
	if r.Name == "" {
		return miss(orElse(lacks, "its key field is empty"))
	}
	if lacks != "" && (r.Error == "" || r.Error == msg) {
		// A candidate names its key and states an error after it.
		return miss(lacks)
	}
	if r.Error == msg && keyAt >= 0 {
		r.Error = noErrorStated // its words say it failed, not why (noerror.go)
	}
	r.ErrorIsMessage = r.Error == msg
	r.Controller = f.kcmController(f.genericController(msg, kindFrom(msg, start, keyAt, countedOK), keyAt), false)
	if subjLead && r.Controller == "unknown" {
		r.Controller = strings.ToLower(f.subjectName) // named after its kind, as controller-runtime's are
	}
	if subject != "" && f.controller == "" && (f.logger == "" || f.logger == "UnhandledError") {
		r.Controller = subject
	}
	if rqQueue != "" && f.controller == "" {
		r.Controller = rqQueue
	}
	r.Template = template(msg)
	if len(f.caller) > 0 && r.Controller == string(f.caller) {
		r.CallerLine = f.callerLine
	}
	r.Message = readPhrases(msg, fail, drop, retry, said)    // for --explain-lines
	r.Error = handlerWordsCut(r.Error, msg, retry, r.GaveUp) // handlerwords.go
	r.Bare = !said && !dropLead && !requeueLead
	if lacks != "" && quiet && f.leveled && drop == nil && keyAt >= 0 && opensIdiom(msg, opens, fail, idiom || processIdiom(msg, fail, keyAt, key), retry != nil) && r.Error != "" && r.Error != msg && (budgeted || !retryBudget.MatchString(msg)) {
		// At info level, the idiom's own opening, its key in the message
		// and its error after it (infoidiom.go).
		lacks, r.Evidence = "", infoIdiomEvidence(r)
	}
	if lacks != "" && (!quiet || budgeted && idiom) && r.Retries > 0 {
		// At error level, the count the queue keeps for the key: its
		// NumRequeues, which only a failed attempt has.
		lacks, r.Evidence = "", fmt.Sprintf("a stated count (%d failures with this one), at error or warning level or with an error field", r.Retries)
		if quiet {
			r.Evidence = fmt.Sprintf(`a stated count with its budget (%d failures with this one) beside "Error syncing": the maxRetries branch that requeues`, r.Retries)
		}
	}
	if lacks == "" && r.Evidence == "" && r.Bare && f.reconcileID != "" {
		// Logged inside Reconcile (reconcileidline.go): its words alone do
		// not say the attempt failed.
		lacks, r.ReconcileID = insideReconcile, f.reconcileID
	}
	if lacks != "" {
		// Perhaps an inner cause too: counted once with its handler's line
		// (attempt.go).
		r.Candidate, r.NotRead, r.Tried, r.Bare = true, lacks, msg, true
		return r, true
	}
	if givenUpAt > 0 {
		r.Retries = givenUpAt
	}
	if r.Evidence == "" && rq {
		r.Evidence = requeueErrEvidence
	}
	if r.Evidence == "" {
		r.Evidence = wordsEvidence(r, said, levelWords(f, errField))
	}
	if f.eventKey != "" && keyAt < 0 {
		r.Evidence += "; its key the object of the event line just before it, which its error names by kind and quoted name"
	}
	return r, true
}
