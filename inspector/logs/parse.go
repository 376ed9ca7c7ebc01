package logs

import (
	"bytes"
	"strings"
	"time"
)

// What is the kind of a controller-runtime log line this package reads.
type What uint8

// The lines the reconstruction uses. Only ErrorLine is logged at the default
// verbosity; the rest need --zap-log-level=5 (or -v=5).
const (
	// ErrorLine is "Reconciler error": the reconcile returned an error; a
	// terminal one when Record.Terminal.
	ErrorLine What = iota + 1
	// StartLine is "Reconciling" (V(5)): a reconcile began.
	StartLine
	// SuccessLine is "Reconcile successful" (V(5)): the key was forgotten.
	SuccessLine
	// RequeueAfterLine is "Reconcile done, requeueing after D" (V(5)).
	RequeueAfterLine
	// RequeueLine is "Reconcile done, requeueing" (V(5)): Requeue: true,
	// a rate-limited requeue without an error.
	RequeueLine
	// QueueLine is the priority queue's periodic "workqueue_items" (V(5)).
	QueueLine
)

// terminalPrefix is what reconcile.TerminalError's message starts with.
const terminalPrefix = "terminal error: "

// Record is what one log line says about a controller's keys.
type Record struct {
	What What
	// At is the line's time: the kubelet's timestamp when the line carries
	// one (kubectl logs --timestamps, as the stream asks for), else the
	// logger's own.
	At time.Time
	// Controller is the controller's name; Group and Kind its object's
	// group and kind when it logs them (controllers built with For()).
	Controller, Group, Kind string
	// Namespace and Name are the key's object (Name alone when cluster-scoped).
	Namespace, Name string
	ReconcileID     string
	// Error is the reconcile's error message; Terminal when it was a
	// reconcile.TerminalError (the message starts "terminal error: ").
	Error    string
	Terminal bool
	// RequeueAfter is the delay of a RequeueAfterLine.
	RequeueAfter time.Duration
	// Items are a QueueLine's queued keys.
	Items []QueueItem
	// Sampled says the line is zap JSON, the format of controller-runtime's
	// production logger, which drops lines of one message past
	// api.SampledLines a second.
	Sampled bool
	// RetryIn is the delay before the next retry when the line states it
	// (Flux's "Reconciliation failed after 21ms, next try in 1m0s"): the
	// retry time is then At+RetryIn, exact. Zero when it must be estimated.
	RetryIn time.Duration
	// Dialect names the family of lines that read it, for the diagnostics
	// that tell a user whether their log was understood.
	Dialect string
	// ClientGoQueue says the line comes from a controller on a bare client-go
	// work queue (cert-manager's, sample-controller's), whose default limiter
	// is client-go's DefaultControllerRateLimiter: the max of per-item
	// exponential (5ms..1000s) and a 10 qps / burst 100 token bucket.
	ClientGoQueue bool
}

// Key is the record's key as the instrument prints it: "namespace/name", or
// "name" when cluster-scoped.
func (r *Record) Key() string {
	if r.Namespace == "" {
		return r.Name
	}
	return r.Namespace + "/" + r.Name
}

// QueueItem is one item of the priority queue's workqueue_items line.
type QueueItem struct {
	Key          string
	AddedCounter uint64
	Priority     int
	// ReadyAt is when a waiting item becomes ready; zero when ready now.
	ReadyAt time.Time
}

// The messages, as controller-runtime writes them (pkg/internal/controller
// and pkg/controller/priorityqueue).
const (
	msgError        = "Reconciler error"
	msgStart        = "Reconciling"
	msgSuccess      = "Reconcile successful"
	msgRequeue      = "Reconcile done, requeueing"
	msgRequeueAfter = "Reconcile done, requeueing after "
	msgQueue        = "workqueue_items"
)

// Every message above contains one of these: a line with neither is skipped
// before any parsing, which is most of a busy controller's log.
var (
	markReconcil = []byte("Reconcil")
	markQueue    = []byte(msgQueue)
)

// Parse reads one log line in any of the formats controller-runtime users
// run: zap JSON (epoch or ISO timestamps), zap console, or klog text, from
// controller-runtime v0.25 back to the releases that logged `request` or
// `reconciler kind`. ref dates klog's year-less timestamps (the newest
// such time not after ref plus a day). ok is false for a line that is none of
// the records above, or is missing the controller or key.
func Parse(line []byte, ref time.Time) (r Record, ok bool) {
	if !bytes.Contains(line, markReconcil) && !bytes.Contains(line, markQueue) {
		return Record{}, false
	}
	line = bytes.TrimRight(line, "\r\n")
	line = trimPodPrefix(line)
	at, line := kubeletTime(line)
	var f fields
	switch {
	case len(line) > 0 && line[0] == '{':
		ok = parseJSON(line, &f)
	case isKlog(line):
		ok = parseKlog(line, ref, &f)
	default:
		ok = parseConsole(line, &f)
	}
	if !ok {
		return Record{}, false
	}
	if !at.IsZero() {
		f.at = at
	}
	r, ok = f.record()
	r.Sampled = line[0] == '{'
	return r, ok
}

// trimPodPrefix drops kubectl logs --prefix's "[pod/NAME/CONTAINER] ".
func trimPodPrefix(line []byte) []byte {
	if bytes.HasPrefix(line, []byte("[pod/")) {
		if i := bytes.Index(line, []byte("] ")); i > 0 {
			return line[i+2:]
		}
	}
	return line
}

// kubeletTime splits off the RFC 3339 timestamp the kubelet puts before each
// line when asked (timestamps=true), followed by one space.
func kubeletTime(line []byte) (time.Time, []byte) {
	if len(line) < 21 || line[4] != '-' || line[10] != 'T' {
		return time.Time{}, line
	}
	sp := bytes.IndexByte(line[:min(len(line), 40)], ' ')
	if sp < 0 {
		return time.Time{}, line
	}
	t, err := time.Parse(time.RFC3339Nano, string(line[:sp]))
	if err != nil {
		return time.Time{}, line
	}
	return t, line[sp+1:]
}

// fields are the key/values of a line, whatever its format.
type fields struct {
	at                      time.Time
	msg, logger             string
	controller, group, kind string
	namespace, name         string
	hasNamespace            bool
	ref                     string // a "namespace/name" reference: request, object, Kind=...
	err                     string
	reconcileID             string
	items                   []byte
}

// set records one key/value; val is already a plain string.
func (f *fields) set(key string, val string) {
	switch key {
	case "msg":
		f.msg = val
	case "logger":
		f.logger = val
	case "controller":
		f.controller = val
	case "controllerGroup", "reconciler group":
		f.group = val
	case "controllerKind", "reconciler kind":
		f.kind = val
	case "namespace":
		f.namespace, f.hasNamespace = val, true
	case "name":
		f.name = val
	case "request", "object":
		f.ref = val
	case "error", "err":
		f.err = val
	case "reconcileID":
		f.reconcileID = val
	}
}

// record turns the fields into a Record, or reports they are not one.
func (f *fields) record() (Record, bool) {
	r := Record{At: f.at, Controller: f.controller, Group: f.group, Kind: f.kind, ReconcileID: f.reconcileID}
	switch {
	case f.msg == msgError:
		r.What = ErrorLine
		r.Error = f.err
		r.Terminal = strings.HasPrefix(f.err, terminalPrefix)
	case f.msg == msgStart:
		r.What = StartLine
	case f.msg == msgSuccess:
		r.What = SuccessLine
	case strings.HasPrefix(f.msg, msgRequeueAfter):
		d, err := time.ParseDuration(strings.TrimPrefix(f.msg, msgRequeueAfter))
		if err != nil || d <= 0 {
			return Record{}, false
		}
		r.What, r.RequeueAfter = RequeueAfterLine, d
	case f.msg == msgRequeue:
		r.What = RequeueLine
	case f.msg == msgQueue:
		r.What = QueueLine
	default:
		return Record{}, false
	}
	if r.Controller == "" {
		r.Controller = controllerFromLogger(f.logger)
	}
	if r.Controller == "" {
		return Record{}, false
	}
	if r.What == QueueLine {
		items, ok := parseItems(f.items)
		r.Items = items
		return r, ok
	}
	r.Namespace, r.Name = f.namespace, f.name
	if r.Name == "" && f.ref != "" {
		r.Namespace, r.Name = splitRef(f.ref)
	}
	return r, r.Name != ""
}

// controllerFromLogger reads the controller's name from the logger name the
// releases before v0.11 used: "controller-runtime.manager.controller.NAME"
// or "controller.NAME".
func controllerFromLogger(logger string) string {
	i := strings.LastIndex(logger, "controller.")
	if i < 0 {
		return ""
	}
	return logger[i+len("controller."):]
}

// splitRef splits "namespace/name" (a klog.ObjectRef or reconcile.Request as
// text); a reference without a slash is a cluster-scoped name.
func splitRef(ref string) (string, string) {
	if ns, name, ok := strings.Cut(ref, "/"); ok {
		return ns, name
	}
	return "", ref
}

// parseItems reads workqueue_items' JSON array of
// {"key":{"Namespace":..,"Name":..},"addedCounter":..,"priority":..,"readyAt":..}.
// A key that is not a reconcile.Request (a typed controller's own type) is
// kept as its JSON text.
func parseItems(raw []byte) ([]QueueItem, bool) {
	var out []QueueItem
	ok := eachElement(raw, func(el []byte) {
		var it QueueItem
		var ns, name string
		eachMember(el, 0, func(k, v []byte) bool {
			switch string(k) {
			case "key":
				if len(v) > 0 && v[0] == '{' {
					eachMember(v, 0, func(k2, v2 []byte) bool {
						switch string(k2) {
						case "Namespace", "namespace":
							ns = jsonString(v2)
						case "Name", "name":
							name = jsonString(v2)
						}
						return true
					})
					if name == "" {
						name = string(v)
					}
				} else {
					ns, name = splitRef(jsonString(v))
				}
			case "addedCounter":
				it.AddedCounter = parseUint(v)
			case "priority":
				it.Priority = int(parseInt(v))
			case "readyAt":
				it.ReadyAt = parseTime(jsonString(v))
			}
			return true
		})
		if name == "" {
			return
		}
		it.Key = name
		if ns != "" {
			it.Key = ns + "/" + name
		}
		out = append(out, it)
	})
	return out, ok
}

func parseUint(b []byte) uint64 {
	var n uint64
	for _, c := range b {
		if c < '0' || c > '9' {
			return n
		}
		n = n*10 + uint64(c-'0')
	}
	return n
}

func parseInt(b []byte) int64 {
	if len(b) > 0 && b[0] == '-' {
		return -int64(parseUint(b[1:]))
	}
	return int64(parseUint(b))
}
