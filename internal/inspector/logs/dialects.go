package logs

import "strings"

// Knative's fields: the key and the reconciler's name. Code, as every
// field the scan keeps (keyFields).
const (
	knativeKey        = "knative.dev/key"
	knativeController = "knative.dev/controller"
)

// unhandledError is what client-go's utilruntime.HandleError logs since
// 1.31, the error as err: the error is then the message to match. Code:
// it says where the message is, for every dialect; and a line of it is a
// failure reported (a marker and a failure marker, builtin.go).
const unhandledError = "Unhandled Error"

// record turns the fields into a Record, put in r (overwritten whole), or
// reports they are not one: the built-in dialects' lines are tried, then
// the dialect files' (user), the first that matches deciding, and behind
// them the generic reader.
func (f *fields) record(fm format, user []Dialect, r *Record) bool {
	msg, via := f.msg, false
	if msg == unhandledError && f.err != "" {
		msg, f.err, via = f.err, "", true
	}
	defer func() { r.ViaHandleError = via }()
	d, l, sub := match(builtins, msg)
	if d == nil {
		// klogr writes a named logger's messages as "NAME: message".
		if name, rest, ok := strings.Cut(msg, ": "); ok {
			if d, l, sub = match(builtins, rest); d != nil {
				if f.logger == "" {
					f.logger = name
				}
				msg = rest
			}
		}
	}
	if d == nil && f.severe && f.err != "" && !via {
		// HandleErrorWithContext(ctx, err, "Error processing node work
		// item"): the message names nothing, the error is the handler's
		// own line of a dialect ("error syncing 'edge-c': …, requeuing",
		// kube-controller-manager's node IPAM, batch14/1440): read it as
		// "Unhandled Error"'s err is read.
		if d2, l2, sub2 := match(builtins, f.err); d2 != nil {
			d, l, sub = d2, l2, sub2
			msg, f.err, via = f.err, "", true
		}
	}
	if d == nil {
		if d, l, sub = match(user, msg); d == nil {
			var ok bool
			*r, ok = f.generic(msg)
			if ok && r.RetryIn == 0 {
				if r.Waited = f.waitedDelay(); r.Waited > 0 {
					r.WaitedWords = waitedField + "=" + f.waited
				}
			}
			return ok
		}
	}
	ok := d.read(l, sub, msg, f, fm, user, r)
	switch {
	case !ok:
		r.Tried = msg
	case l.Prefix || l.Regexp != nil:
		// Only a part of msg matched: --explain-lines says which line
		// of the dialect, and the message.
		r.Message, r.Tried = l.shown, msg
	}
	return ok
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
