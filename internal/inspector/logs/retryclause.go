package logs

import (
	"regexp"
	"strings"
)

// A handler may say what failed, then, after a colon, that it will retry
// and which object: "Sync failed: Will re-queue storage \"KEY\": ERR"
// (a storage provisioner's work queue, batch13/1301: klog.Errorf of the
// sync's error then AddRateLimited). The key is in the retry clause, not
// before the message's first ": " where the generic reader looks; and
// this queue's key joins namespace and name with a colon
// ("default:magic-stor"), the controller's own key, as its other lines
// name it (`Sync started: Storage "default:magic-stor"`).

// retryClauseKey finds the key of such a message: msg[start:headEnd] is
// the failure before the first ": ", which named no key, and the clause
// after that colon opens with the retry words at retry (after an optional
// "will"), then at most two words of the object's kind, then the key,
// then ": " and the error. The key is a namespace/name or one quoted name
// (a colon-joined one too). It returns the key, where it starts in msg,
// and ok.
func retryClauseKey(msg string, headEnd int, retry []int) (key string, at int, ok bool) {
	if retry == nil || headEnd+2 > len(msg) || msg[headEnd:headEnd+2] != ": " {
		return "", 0, false
	}
	lead := strings.TrimSpace(msg[headEnd+2 : max(retry[0], headEnd+2)])
	if retry[0] < headEnd+2 || lead != "" && !strings.EqualFold(lead, "will") {
		return "", 0, false
	}
	clause := msg[retry[1]:]
	end := strings.Index(clause, ": ")
	if end < 0 || strings.TrimSpace(clause[end+2:]) == "" {
		return "", 0, false // no error after it
	}
	words := strings.Fields(clause[:end])
	if len(words) == 0 || len(words) > 3 {
		return "", 0, false
	}
	last := words[len(words)-1]
	at = retry[1] + strings.LastIndex(clause[:end], last)
	if k, kAt, found := messageKey(last); found && k == strings.Trim(last, `"'`) {
		return k, at + kAt, true
	}
	if q := strings.Trim(last, `"`); len(q) == len(last)-2 && colonKey.MatchString(q) && strings.ContainsAny(q[strings.IndexByte(q, ':'):], "abcdefghijklmnopqrstuvwxyz") {
		return q, at + 1, true
	}
	return "", 0, false
}

// colonKey is a key of namespace and name joined by a colon, both DNS
// names; the name holds a letter, so that a host and port is none.
var colonKey = regexp.MustCompile(`^[a-z0-9](?:[-a-z0-9]{0,61}[a-z0-9])?:[a-z0-9](?:[-a-z0-9.]{0,251}[a-z0-9])?$`)
