package logs

import (
	"strings"
	"time"
)

// A family is one kind of controller and the lines it writes when a
// reconcile fails (and, where it has them, when one succeeds or requeues):
// a built-in dialect of dialects/builtin.yaml (see its fields there),
// compiled for the matcher (builtin.go).
type family struct {
	// name is what the diagnostics call it.
	name string
	// messages are the lines it reads, matched against the logger's message.
	messages []message
	// keyField is the field holding the key ("namespace/name") when it is
	// not one of controller-runtime's (namespace and name, request, object,
	// the kind-named reference), e.g. cert-manager's "key".
	keyField string
	// The controller's name, when the line has no "controller" field: from
	// the logger's name (logger), else the caller's file (callerStem:
	// "controller" for controller.go:321), else fixed.
	logger     loggerRule
	callerStem bool
	fixed      string
	// clientGo says the controller runs a bare client-go work queue with
	// client-go's DefaultControllerRateLimiter (or, as sample-controller,
	// its per-item part with a larger bucket).
	clientGo bool
	// limiters are the rules of the per-item limiter the project sets, by
	// controller name and the line's time (a release changed it), when it
	// is not the default of its queue; limiterShared says they hold for
	// the lines of any family whose controller they name (a Crossplane
	// provider's controller-runtime lines).
	limiters      []LimiterRule
	limiterShared bool
	// successesLogged says its successes are written wherever its failure
	// lines are — Flux logs both at info, Crossplane both at --debug — so a
	// log with one of its lines shows successes (Record.Verbose), and a
	// failure streak it shows is consecutive.
	successesLogged bool
	// markers and failMarkers are its lines' and its failures' (see
	// markers); advice what its project is advised.
	markers, failMarkers []string
	advice               Advice
}

// message is one line of a family.
type message struct {
	text string
	// prefix says text is the message's start, not all of it.
	prefix bool
	what   What
	// keySep, when set, says the key and error are in the message itself:
	// text KEY keySep ERROR (client-go controllers that log
	// fmt.Errorf("error syncing '%s': %s", ...)); errSuffix is trimmed off
	// the error.
	keySep, errSuffix string
	// dur, when set, is followed by a duration that ends the message: the
	// RequeueAfter of a RequeueAfterLine, or the stated next retry of an
	// ErrorLine (Flux's "next try in 1m0s").
	dur string
	// afterField says a RequeueAfterLine states its RequeueAfter as the
	// time it ends, in the "requeue-after" field (Crossplane's).
	afterField bool
	// keyIsNamespace says the key is the namespace field: the line is about
	// a Namespace object (kube-controller-manager's namespace controller).
	keyIsNamespace bool
}

// loggerRule says how a family's logger name names the controller.
type loggerRule uint8

const (
	// loggerNone: the logger's name does not name the controller.
	loggerNone loggerRule = iota
	// loggerController: "controller-runtime.manager.controller.NAME" or
	// "controller/NAME" (controller-runtime before v0.11, Flux before v0.20).
	loggerController
	// loggerLast: its last segment ("cert-manager/controller/NAME").
	loggerLast
)

// Knative's fields: the key and the reconciler's name. Code, as every
// field the scan keeps (keyFields).
const (
	knativeKey        = "knative.dev/key"
	knativeController = "knative.dev/controller"
)

// unhandledError is what client-go's utilruntime.HandleError logs since
// 1.31, the error as err: the error is then the message to match. Code:
// it says where the message is, for every dialect.
const unhandledError = "Unhandled Error"

// match finds the family and message msg is.
func match(msg string) (*family, *message) {
	for i := range families {
		fam := &families[i]
		for j := range fam.messages {
			m := &fam.messages[j]
			if msg == m.text || m.prefix && strings.HasPrefix(msg, m.text) && (m.keySep == "" || strings.Contains(msg[len(m.text):], m.keySep)) {
				return fam, m
			}
		}
	}
	return nil, nil
}

// record turns the fields into a Record, or reports they are not one.
func (f *fields) record(fm format, user []Dialect) (Record, bool) {
	msg := f.msg
	if msg == unhandledError && f.err != "" {
		msg, f.err = f.err, ""
	}
	fam, m := match(msg)
	if fam == nil {
		// klogr writes a named logger's messages as "NAME: message".
		name, rest, ok := strings.Cut(msg, ": ")
		if ok {
			fam, m = match(rest)
		}
		if fam == nil {
			// No built-in dialect's: a dialect file's, then the generic
			// reader of the work-queue idiom, behind every named one.
			for i := range user {
				if r, ok := user[i].read(msg, f, fm); ok || r.NotRead != "" {
					r.Tried = msg
					return r, ok
				}
			}
			return f.generic(msg)
		}
		msg = rest
		if f.logger == "" {
			f.logger = name
		}
	}
	r := Record{What: m.what, At: f.at, Controller: f.controller, Group: f.group, Kind: f.kind, ReconcileID: f.reconcileID,
		Error: f.err, Dialect: dialectName(fam, fm), ClientGoQueue: fam.clientGo, Verbose: fam.successesLogged, Message: m.text}

	if m.afterField {
		r.RequeueAfter = requeueAfter(r.At, f.requeueAt)
	}
	if m.dur != "" {
		i := strings.LastIndex(msg, m.dur)
		if i < 0 {
			return Record{}, false
		}
		d, err := time.ParseDuration(msg[i+len(m.dur):])
		if err != nil || d <= 0 {
			return Record{}, false
		}
		if r.What == ErrorLine {
			r.RetryIn, r.RetryWords = d, statedWords(msg, len(msg))
		} else {
			r.RequeueAfter = d
		}
	}
	if r.Controller == "" {
		r.Controller = f.kcmController(f.controllerName(fam), fam.name == kcmDialect)
	}
	if r.Controller == "" && fam.clientGo && m.what == ErrorLine {
		// A line that names no logger and no file (Go's log, a bracketed
		// level, logrus' text or JSON): the key and its failure are still
		// there, and the controller is unknown, not the line unread.
		r.Controller = "unknown"
	}
	if r.Controller == "" {
		return Record{}, false
	}
	if len(fam.limiters) > 0 {
		r.Limiter, r.LimiterOf = limiterFor(fam.limiters, r.Controller, r.At), fam.name
	}
	if r.Limiter == (Limiter{}) {
		// A Crossplane provider's controller-runtime lines ("Reconciler
		// error" when a status update fails, "Reconciling") come from the
		// same queue, with the same limiter.
		for i := range families {
			if sh := &families[i]; sh.limiterShared {
				if l := limiterFor(sh.limiters, r.Controller, r.At); l != (Limiter{}) {
					r.Limiter, r.LimiterOf = l, sh.name
					break
				}
			}
		}
	}
	switch {
	case r.What == QueueLine:
		items, ok := parseItems(f.items)
		r.Items = items
		return r, ok
	case r.What == ForgetLine:
		return f.forget(r)
	case m.keySep != "":
		key, err, ok := strings.Cut(msg[len(m.text):], m.keySep)
		if !ok {
			return Record{}, false
		}
		r.Namespace, r.Name = splitKey(key)
		r.Error = strings.TrimSuffix(err, m.errSuffix)
	case m.keyIsNamespace:
		r.Name = f.namespace
	case fam.keyField != "" && f.altName == fam.keyField:
		r.Namespace, r.Name = splitKey(f.alt)
	default:
		r.Namespace, r.Name = f.namespace, f.name
		if r.Name == "" && f.ref != "" {
			r.Namespace, r.Name = splitRef(f.ref)
		}
	}
	r.Terminal = r.What == ErrorLine && strings.HasPrefix(r.Error, terminalPrefix)
	return r, r.Name != ""
}

// controllerName names the controller of a line without a "controller"
// field, as the family says.
func (f *fields) controllerName(fam *family) string {
	switch fam.logger {
	case loggerController:
		if c := controllerFromLogger(f.logger); c != "" {
			return c
		}
	case loggerLast:
		if f.logger == "UnhandledError" { // client-go's utilruntime names its logger so
			break
		}
		if i := strings.LastIndexAny(f.logger, "/."); i >= 0 && i+1 < len(f.logger) {
			return f.logger[i+1:]
		}
		if f.logger != "" {
			return f.logger
		}
	}
	if fam.callerStem && len(f.caller) > 0 {
		return string(f.caller)
	}
	return fam.fixed
}

// splitKey splits a work queue key: "namespace/name", or a name alone. A key
// that is not a cache key (a struct a controller queues, printed as
// "{ns/name add}") is kept whole as the name.
func splitKey(key string) (string, string) {
	if strings.ContainsAny(key, " {}") {
		return "", key
	}
	return splitRef(key)
}

// dialectNames holds each family's name in each format, made once so that
// naming a record's dialect does not allocate.
var dialectNames = func() [][]string {
	out := make([][]string, len(families))
	for i, fam := range families {
		out[i] = make([]string, len(formatNames))
		for fm, name := range formatNames {
			out[i][fm] = fam.name + " (" + name + ")"
		}
	}
	return out
}()

func dialectName(fam *family, fm format) string {
	for i := range families {
		if &families[i] == fam {
			return dialectNames[i][fm]
		}
	}
	return fam.name
}
