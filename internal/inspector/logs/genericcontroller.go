package logs

import "strings"

// genericController names the controller of a generic line (see the order
// above); start is where the failure phrase begins, keyAt where the key
// does in msg (-1 when a field held it).
func (f *fields) genericController(msg string, start, keyAt int) string {
	switch {
	case f.controller != "":
		return f.controller
	case f.logger != "" && f.logger != "UnhandledError":
		return f.logger
	}
	if name, _, ok := strings.Cut(msg[:start], ": "); ok && name != "" && !strings.Contains(name, " ") {
		return name
	}
	if len(f.caller) > 0 {
		return string(f.caller)
	}
	if keyAt < 0 {
		return "unknown"
	}
	// The kind between the verb and the key: "Error syncing Longhorn node".
	var kind []string
	for w := range strings.FieldsSeq(msg[start:keyAt]) {
		// Brackets and quotes around the key are not the kind's, nor
		// words that name a key of no kind ("error syncing key (ns/x)").
		w = strings.Trim(w, `"'([{<`)
		if w != "" && !verbWords[strings.ToLower(w)] && !keyWords[strings.ToLower(w)] {
			kind = append(kind, w)
		}
	}
	if len(kind) == 0 {
		// Nothing names it: the line's own words did not, and no field.
		return "unknown"
	}
	return strings.Join(kind, " ")
}

// keyWords name a key without saying its kind.
var keyWords = map[string]bool{"key": true, "item": true, "object": true, "resource": true, "request": true}

// verbWords are the words of the failure and drop phrases, not a kind.
var verbWords = map[string]bool{
	"error": true, "errors": true, "failed": true, "fail": true, "failure": true, "unable": true, "to": true, "in": true,
	"while": true, "when": true, "on": true, "for": true, "of": true, "the": true, "sync": true, "syncing": true,
	"handling": true, "handle": true, "processing": true, "process": true, "reconcile": true, "reconciling": true,
	"dropping": true, "dropped": true, "giving": true, "up": true, "gave": true, "permanent": true, "could": true, "not": true, "cannot": true,
	"updating": true, "update": true, "provisioning": true, "ensuring": true, "applying": true, "reenqueuing": true, "requeuing": true,
}
