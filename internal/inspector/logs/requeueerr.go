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

// GCE's copy (ingress-gce's PeriodicTaskQueue) writes the key quoted, the
// words "due to error", and the queue's resource after the error:
//
//	klog.Errorf("Requeuing %q due to error: %v (%v)", key, err, t.resource)
//	t.queue.AddRateLimited(key)
//
// so `Requeuing "KEY" due to error: ERR (QUEUE)` is KEY's failed attempt
// too, on the same terms (testdata/batch19/1902).

// requeuePrefix opens the task queue's line; its first letter's case
// differs between copies.
const requeuePrefix = "equeuing "

// requeueErrSep is what the task queue writes between the key and the
// error.
const requeueErrSep = ", err "

// requeueDueSep is what GCE's copy writes between the quoted key and the
// error.
const requeueDueSep = " due to error: "

// requeueErr reads msg, from where its words open, as the task queue's
// "requeuing KEY, err ERR" or `Requeuing "KEY" due to error: ERR`: keyEnd
// is where KEY (with its quotes) ends in msg and err the error after it.
// ok is false for any other message, for a KEY that is not a
// namespace/name, and for an empty ERR.
func requeueErr(msg string, opens int) (keyEnd int, err string, ok bool) {
	rest := msg[opens:]
	if len(rest) < 1+len(requeuePrefix) || (rest[0] != 'r' && rest[0] != 'R') || !strings.HasPrefix(rest[1:], requeuePrefix) {
		return 0, "", false
	}
	rest = rest[1+len(requeuePrefix):]
	key, after, found := strings.Cut(rest, requeueErrSep)
	bare := key
	if !found {
		key, after, found = strings.Cut(rest, requeueDueSep)
		if bare = strings.TrimPrefix(strings.TrimSuffix(key, `"`), `"`); len(bare)+2 != len(key) {
			return 0, "", false // the key is quoted in these words
		}
	}
	if !found || after == "" || strings.HasPrefix(bare, "/") || !nsName.MatchString(bare) {
		return 0, "", false
	}
	return len(msg) - len(rest) + len(key), after, true
}

// requeueQueue splits the queue's resource off the end of a task queue's
// error, `ERR (QUEUE)` as GCE's copy writes it: queue is "" when err does
// not end in one lower-case word (letters, digits, dashes) in parentheses.
func requeueQueue(err string) (rest, queue string) {
	i := strings.LastIndex(err, " (")
	if i <= 0 || !strings.HasSuffix(err, ")") {
		return err, ""
	}
	q := err[i+2 : len(err)-1]
	if q == "" || strings.TrimLeft(q, "abcdefghijklmnopqrstuvwxyz0123456789-") != "" {
		return err, ""
	}
	return err[:i], q
}

// requeueErrEvidence is what --explain-lines says decided such a line.
const requeueErrEvidence = `the task queue's "requeuing KEY, err ERR": its worker logs it when the item's sync returned an error, and re-adds the item`
