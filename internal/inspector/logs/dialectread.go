package logs

import (
	"slices"
	"strconv"
	"strings"
	"time"
)

// The one reader of a dialect's lines, built-in or from a file: match
// finds the line a message is, read makes the record of it.

// match is the first of ds's lines msg is, and its dialect; for a regexp
// line, its submatches.
func match(ds []Dialect, msg string) (*Dialect, *DialectLine, []string) {
	for i := range ds {
		d := &ds[i]
		for j := range d.Lines {
			l := &d.Lines[j]
			switch {
			case l.Regexp != nil:
				if m := l.Regexp.FindStringSubmatch(msg); m != nil {
					return d, l, m
				}
			case msg == l.Text:
				return d, l, nil
			case l.Prefix && strings.HasPrefix(msg, l.Text) && (l.KeySep == "" || strings.Contains(msg[len(l.Text):], l.KeySep)):
				return d, l, nil
			}
		}
	}
	return nil, nil, nil
}

// matchedNotRead opens the Record.NotRead of a line one of a dialect's
// failure lines matched but read could not make a record of (no key, no
// controller): parseAll counts such a line unreadable by it.
const matchedNotRead = "matches dialect "

// read makes the record of msg, which is d's line l (sub: a regexp's
// submatches), with the line's fields f, in r (overwritten whole). A line
// it cannot read says why (Record.NotRead).
func (d *Dialect) read(l *DialectLine, sub []string, msg string, f *fields, fm format, user []Dialect, r *Record) bool {
	// Cleared, then set field by field: a composite literal put through a
	// pointer is built aside and copied.
	*r = Record{}
	f.readBy = d
	r.What, r.At, r.Group, r.Kind, r.ReconcileID, r.Error = l.Means, f.at, f.group, f.kind, f.reconcileID, f.err
	r.Terminal, r.GaveUp, r.Dialect, r.ClientGoQueue, r.Verbose = l.Terminal, l.Dropped, d.names[fm], d.ClientGo, d.SuccessesLogged
	r.Message, r.KnownOnly, r.Finished = l.Text, l.KnownKeys, l.Finished
	if l.Finished {
		r.Took = f.tookDuration()
	}
	notRead := func(why string) bool {
		if l.Means != ErrorLine {
			*r = Record{} // it does not look like a failure
			return false
		}
		why = matchedNotRead + strconv.Quote(d.Name) + "'s line " + strconv.Quote(r.Message) + " but " + why
		*r = Record{NotRead: why}
		return false
	}
	key, keyed, filed := "", false, false
	if l.Regexp != nil {
		r.Message = l.Regexp.String()
		group := func(name string) string {
			if i := l.Regexp.SubexpIndex(name); i > 0 {
				return sub[i]
			}
			return ""
		}
		key, keyed = group("key"), l.Regexp.SubexpIndex("key") > 0
		if !keyed && l.Regexp.SubexpIndex("name") > 0 {
			// A key written name first (the kubelet's format.Pod,
			// NAME_NAMESPACE(UID)): its parts in groups of their own.
			key, keyed = group("name"), true
			if ns := group("namespace"); ns != "" {
				key = ns + "/" + key
			}
		}
		if e := group("error"); e != "" {
			r.Error = unquotedError(e)
		}
		if c := group("count"); c != "" {
			r.Retries, _ = strconv.Atoi(c)
		}
		if s := group("retry"); s != "" {
			dur, err := time.ParseDuration(s)
			if err != nil || dur <= 0 {
				return notRead("its retry group " + strconv.Quote(s) + " is not a positive Go duration")
			}
			if r.What == RequeueAfterLine {
				r.RequeueAfter = dur
			} else {
				r.RetryIn, r.RetryWords = dur, statedWordsOf(msg, s)
			}
		}
	}
	if l.RequeueAfterField {
		r.RequeueAfter = requeueAfter(r.At, f.requeueAt)
	}
	if l.DurationAfter != "" {
		i := strings.LastIndex(msg, l.DurationAfter)
		if i < 0 {
			return notRead("says no duration after " + strconv.Quote(l.DurationAfter))
		}
		dur, err := time.ParseDuration(msg[i+len(l.DurationAfter):])
		if err != nil || dur <= 0 {
			return notRead("its duration after " + strconv.Quote(l.DurationAfter) + " is not a positive Go duration")
		}
		if r.What == ErrorLine {
			r.RetryIn, r.RetryWords = dur, statedWords(msg, len(msg))
		} else {
			r.RequeueAfter = dur
		}
	}
	r.Controller, filed = d.controller(l, f)
	kindController, kindNS, kindName, kindOK := f.kindNamed()
	if r.Controller == "" && kindOK {
		r.Controller = kindController
	}
	if r.Controller == "" && f.kindBefore != "" && l.Means == ErrorLine {
		r.Controller = strings.ToLower(f.kindBefore) // keybefore.go
	}
	if r.Controller == "" {
		return notRead("names no controller: no controller field, and the dialect names none")
	}
	r.Limiter, r.LimiterOf = limiterOf(d, r.Controller, r.At, user)
	switch {
	case r.What == QueueLine:
		items, ok := parseItems(f.items)
		r.Items = items
		return ok
	case r.What == ForgetLine:
		return f.forget(r)
	case r.What == KeyLine:
		r.Namespace, r.Name = f.anyKey()
		return r.Name != ""
	case l.Finished && !l.KeyIsNamespace:
		// A sync's end names its key in whichever field its controller
		// chose (key=, deployment=, daemonset=): finished.go.
		r.Namespace, r.Name = f.anyKey()
		return r.Name != ""
	case l.KeyFromAttempt:
		// Its attempt's names-key line names the key (attemptkey.go);
		// the line, at most its own name for the object.
		r.KeyFromAttempt = true
		if l.KeySep != "" {
			alias, err, ok := strings.Cut(msg[len(l.Text):], l.KeySep)
			if !ok {
				return notRead("holds no " + strconv.Quote(l.KeySep) + " after its object")
			}
			r.Alias, r.Error = alias, strings.TrimSuffix(err, l.ErrorSuffix)
		} else if l.Prefix {
			r.Error = msg[len(l.Text):]
		}
		return r.Error != ""
	case keyed:
		r.Namespace, r.Name = splitKey(key)
	case l.KeySep != "":
		k, err, ok := strings.Cut(msg[len(l.Text):], l.KeySep)
		if !ok {
			return notRead("holds no " + strconv.Quote(l.KeySep) + " after its key")
		}
		r.Namespace, r.Name = splitKey(k)
		r.Error = strings.TrimSuffix(err, l.ErrorSuffix)
	case l.KeyIsNamespace:
		r.Name = f.namespace
	case l.KeyInField:
		if f.keyFields == 1 { // two such fields of two keys are no key
			r.Namespace, r.Name = splitRef(f.keyField)
		}
	case d.KeyField != "" && f.altName == d.KeyField:
		r.Namespace, r.Name = splitKey(f.alt)
	default:
		r.Namespace, r.Name = f.namespace, f.name
		f.keyFromName = r.Name != ""
		if r.Name == "" && f.ref() != "" {
			r.Namespace, r.Name = splitRef(f.ref())
		}
		if r.Name == "" && kindOK && r.Controller == kindController {
			r.Namespace, r.Name = kindNS, kindName
		}
		if r.Name == "" && f.callerFields == 1 && f.namespace != "" && l.Means == ErrorLine {
			r.Namespace, r.Name = f.namespace, f.callerField // callerfield.go
			if d.Controller == "" && f.controller == "" {
				// named after its kind, as controller-runtime's are, not
				// after the process its logger names
				r.Controller = strings.ToLower(string(f.callerPkg))
				r.Limiter, r.LimiterOf = limiterOf(d, r.Controller, r.At, user)
			}
		}
		if r.Name == "" && f.keyBefore != "" && l.Means == ErrorLine {
			r.Namespace, r.Name = splitRef(f.keyBefore) // keybefore.go
		}
	}
	if r.Name == "" {
		return notRead("names no key: no key group, no namespace and name, request or object field, and no key-field")
	}
	if !l.Terminal {
		r.Terminal = r.What == ErrorLine && strings.HasPrefix(r.Error, terminalPrefix)
	}
	if h := handlerNamed(r.Error); filed && h != "" && r.What == ErrorLine {
		r.Controller, r.ControllerWords = h, "handler "+h
		r.Limiter, r.LimiterOf = limiterOf(d, r.Controller, r.At, user)
	}
	return true
}

// controller names the controller of d's line l: the dialect's fixed
// name, else the line's controller field, else the name d's line l gives,
// else where d.From says; a failure of a bare client-go queue that
// nothing names is "unknown" (a line of Go's log, a bracketed level,
// logrus' text), not the line unread. filed says the name is only the
// caller's file, as no dialect renames it, or "unknown": a handler the
// error names is the better name (handlername.go).
func (d *Dialect) controller(l *DialectLine, f *fields) (name string, filed bool) {
	switch {
	case d.Controller != "":
		return d.Controller, false
	case f.controller != "":
		return f.controller, false
	case l.Controller != "":
		return l.Controller, false
	}
	c := ""
	switch d.From.Logger {
	case loggerController:
		c = controllerFromLogger(f.logger)
	case loggerLast:
		if f.logger == "UnhandledError" { // client-go's utilruntime names its logger so
			break
		}
		if i := strings.LastIndexAny(f.logger, "/."); i >= 0 && i+1 < len(f.logger) {
			c = f.logger[i+1:]
		} else {
			c = f.logger
		}
	case loggerWhole:
		c = f.logger
	}
	if c == "" && d.From.Caller && len(f.caller) > 0 {
		c = d.renamed(string(f.caller), f)
		filed = c == string(f.caller)
	}
	if c == "" {
		c = d.renamed(d.From.Name, f)
	}
	if c == "" && d.ClientGo && l.Means == ErrorLine {
		c, filed = "unknown", true
	}
	return c, filed
}

// renamed is name, the caller's file or the dialect's fallback, as the
// dialect's files name it; a line of client-go's UnhandledError logger is
// kube-controller-manager's (kcmController).
func (d *Dialect) renamed(name string, f *fields) string {
	if d.From.Files != nil {
		if n, ok := d.From.Files[name]; ok {
			return n
		}
		return name
	}
	return f.kcmController(name, false)
}

// limiterOf is the limiter of d's line for controller at at, and whose
// it is: d's rules, else those of a dialect that shares them (a
// Crossplane provider's controller-runtime lines come from the same
// queue, with the same limiter); zero and no one's when none says one
// (the queue's default).
func limiterOf(d *Dialect, controller string, at time.Time, user []Dialect) (Limiter, string) {
	if l := limiterFor(d.Limiters, controller, at); l != (Limiter{}) {
		return l, d.Name
	}
	for _, sh := range sharedBuiltins {
		if l := limiterFor(sh.Limiters, controller, at); l != (Limiter{}) {
			return l, sh.Name
		}
	}
	for i := range user {
		if sh := &user[i]; sh.LimiterShared {
			if l := limiterFor(sh.Limiters, controller, at); l != (Limiter{}) {
				return l, sh.Name
			}
		}
	}
	return Limiter{}, ""
}

// limitersDated says whether a rule limiterOf asks for d's lines is
// dated (LimiterRule.Before): without one, its answer for a controller is
// the same at any time.
func limitersDated(d *Dialect, user []Dialect) bool {
	dated := func(rules []LimiterRule) bool {
		return slices.ContainsFunc(rules, func(r LimiterRule) bool { return !r.Before.IsZero() })
	}
	if dated(d.Limiters) {
		return true
	}
	for _, sh := range sharedBuiltins {
		if dated(sh.Limiters) {
			return true
		}
	}
	for i := range user {
		if user[i].LimiterShared && dated(user[i].Limiters) {
			return true
		}
	}
	return false
}

// sharedBuiltins are the built-in dialects that share their limiter rules,
// in their order: limiterOf asks them at every record, and a walk over
// every built-in dialect (a few hundred bytes apart) to find them was a
// fortieth of a read of controller-runtime's V(5) log.
var sharedBuiltins = func() (out []*Dialect) {
	for i := range builtins {
		if builtins[i].LimiterShared {
			out = append(out, &builtins[i])
		}
	}
	return out
}()

// unquotedError is a regexp's error group: the text of the error, its
// quotes and escapes undone when the group is one Go-quoted string (the
// kubelet's v1.19–v1.20 "… Error: \"Volume has not been added …\"").
func unquotedError(e string) string {
	if len(e) < 2 || e[0] != '"' || e[len(e)-1] != '"' {
		return e
	}
	if s, n, ok := klogString([]byte(e)); ok && n == len(e) {
		return s
	}
	return e
}
