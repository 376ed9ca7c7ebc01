package logs

import "strings"

// A controller built on wrangler (Rancher, k3s' helm-controller and
// svccontroller, system-upgrade-controller, Harvester, Fleet) logs its
// failures as client-go's sample-controller does, "error syncing 'KEY':
// ERR, requeuing", through lasso's shared controller, which runs every
// handler registered for the object's type and wraps each handler's error
// as "handler NAME: ERR" (lasso pkg/controller/sharedhandler.go:
// handlerError). Its lines have no controller field and no logger name;
// the caller's file is lasso's controller.go for every controller of the
// process. The handler's name is the one the author registered
// (OnChange(ctx, "need-a-cert", …)): the log's own name for what failed,
// where "controller" (the file) or "unknown" would be a word of ours.

// maxHandlerName bounds a handler's name: a registered name, not a sentence.
const maxHandlerName = 63

// handlerNamed is the handler an error names at its start ("handler
// need-a-cert: services … not found": need-a-cert), or "" when it names
// none: one word of letters, digits, '-', '_', '.' or '/', then ": ".
func handlerNamed(err string) string {
	rest, ok := strings.CutPrefix(err, "handler ")
	if !ok {
		return ""
	}
	name, _, ok := strings.Cut(rest, ": ")
	if !ok || name == "" || len(name) > maxHandlerName {
		return ""
	}
	for _, c := range name {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("-_./", c)) {
			return ""
		}
	}
	return name
}
