package logs

import "strings"

// The task queue that ingress-nginx wrote and other ingress controllers
// copied (haproxy-ingress, nginxinc's, GCE's) logs its failed item in
// words of its own, with no failure verb: its worker runs the sync and,
// when it returns an error,
//
//	klog.Warningf("requeuing %v, err %v", item.Key, err)
//	t.queue.AddRateLimited(...)
//
// (older copies: glog.Errorf("Requeuing %v, err %v", key, err), then
// queue.Add). So "requeuing KEY, err ERR" is a failed attempt of KEY,
// re-added, at whatever level the copy logs it — when KEY is an object's
// namespace/name: ingress-nginx requeues its one synthetic item,
// "initial-sync" (the whole configuration), in the same words, and that
// names no object (testdata/wild/ingress-nginx-3443.log).

// requeuePrefix opens the task queue's line; its first letter's case
// differs between copies.
const requeuePrefix = "equeuing "

// requeueErrSep is what the task queue writes between the key and the
// error.
const requeueErrSep = ", err "

// requeueErr reads msg, from where its words open, as the task queue's
// "requeuing KEY, err ERR": keyEnd is where KEY ends in msg and err the
// error after it. ok is false for any other message, for a KEY that is not
// a namespace/name, and for an empty ERR.
func requeueErr(msg string, opens int) (keyEnd int, err string, ok bool) {
	rest := msg[opens:]
	if len(rest) < 1+len(requeuePrefix) || (rest[0] != 'r' && rest[0] != 'R') || !strings.HasPrefix(rest[1:], requeuePrefix) {
		return 0, "", false
	}
	rest = rest[1+len(requeuePrefix):]
	key, after, found := strings.Cut(rest, requeueErrSep)
	if !found || after == "" || strings.HasPrefix(key, "/") || !nsName.MatchString(key) {
		return 0, "", false
	}
	return len(msg) - len(rest) + len(key), after, true
}

// requeueErrEvidence is what --explain-lines says decided such a line.
const requeueErrEvidence = `the task queue's "requeuing KEY, err ERR": its worker logs it when the item's sync returned an error, and re-adds the item`
