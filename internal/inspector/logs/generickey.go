package logs

import (
	"regexp"
	"strings"
)

// Where the generic reader finds a failure's parts in its message: where
// its words open, the controller named as its subject, the key, the error.

// opening is where a message's words begin after a "NAME: " naming its
// logger or kind (klogr's named loggers, "TidbCluster: ns/x, sync failed").
func opening(msg string) int {
	if name, _, ok := strings.Cut(msg, ": "); ok && name != "" && !strings.ContainsAny(name, " /\"'") {
		return len(name) + 2
	}
	return 0
}

// controllerSubject is the controller a message names as the subject of
// its failure phrase at fail: `"NAME" controller failed to sync "key",
// err: ERR` (library-go's base controller, HandleError before
// AddRateLimited), "NAME reconciler failed to reconcile KEY: ERR": one
// name, then the word controller or reconciler. "" when it names none.
func controllerSubject(msg string, opens, fail int) string {
	if fail < opens {
		return ""
	}
	words := strings.Fields(msg[opens:fail])
	if len(words) != 2 {
		return ""
	}
	if w := strings.ToLower(words[1]); w != "controller" && w != "reconciler" {
		return ""
	}
	name := strings.Trim(words[0], `"'`)
	if name == "" || strings.ContainsAny(name, `/"'`) {
		return ""
	}
	return name
}

// failAfterKey says whether the failure phrase at fail follows the key
// directly: "Sync ns/x failed with : ERR", "ns/x, sync failed ERR" — the
// message opens with the key (and a verb), then says it failed.
func failAfterKey(msg string, opens, fail int) bool {
	if fail < opens {
		return false
	}
	words := strings.Fields(msg[opens:fail])
	if len(words) == 0 || len(words) > 2 {
		return false
	}
	_, _, ok := messageKey(msg[opens:fail])
	return ok
}

// keyFailedWith is the failure phrase of a message that opens with its key
// and says only that it "failed with" an error: kube-controller-manager's
// daemon set controller (and the apiserver's dynamic certificate
// controllers) HandleError(fmt.Errorf("%v failed with : %v", key, err))
// before AddRateLimited, "kube-system/x failed with : ERR" — no verb of the
// work queue's, no retry word. The key is the message's first word, a
// namespace/name, and the error follows the phrase's colon; nil else.
func keyFailedWith(msg string, opens int) []int {
	m := keyFailedWithRE.FindStringSubmatchIndex(msg[opens:])
	if m == nil {
		if at := quotedKeyFailedWith(msg, opens); at != nil {
			return at
		}
		// "PV nfs-archive-02 failed with : ERR" (kube-controller-manager's
		// PV protection): a kind's acronym, then a cluster-scoped name.
		if m = kindKeyFailedWithRE.FindStringSubmatchIndex(msg[opens:]); m == nil || !bareClusterKey(msg[opens+m[2]:opens+m[3]]) {
			return nil
		}
		return []int{opens + m[4], opens + m[5]}
	}
	first := msg[opens+m[2] : opens+m[3]]
	if key, at, ok := messageKey(first); (!ok || at != 0 || key != first || strings.HasPrefix(key, "/")) && !bareClusterKey(first) {
		return nil
	}
	return []int{opens + m[4], opens + m[5]}
}

// bareClusterKey says an unquoted first word is a cluster-scoped key
// (kube-controller-manager's clusterrole aggregation: "monitoring-view
// failed with : ERR"): an object's name with a dash or a dot in it, which
// a word of prose ("sync", configmap_cafile_content's constant item
// "key") has not.
func bareClusterKey(w string) bool {
	return clusterName.MatchString(w) && strings.ContainsAny(w, "-.") && strings.ContainsAny(w, "abcdefghijklmnopqrstuvwxyz")
}

// quotedKeyFailedWith is the same idiom with the handler's words before the
// key: HandleError(fmt.Errorf("loading OpenAPI spec for %q failed with: %v",
// key, err)) before AddRateLimited (kube-aggregator's OpenAPI v2 and v3
// queues, batch20/2001) — the quoted key just before "failed with", its
// colon and the error. Nothing before the key may state an error (a ": "),
// and the message must name no other key before the phrase: the key is
// the one the handler failed on, not a name inside its error.
func quotedKeyFailedWith(msg string, opens int) []int {
	m := quotedKeyFailedWithRE.FindStringSubmatchIndex(msg[opens:])
	if m == nil || strings.Contains(msg[opens:opens+m[0]], ": ") {
		return nil
	}
	name := msg[opens+m[2] : opens+m[3]]
	if key, _, ok := messageKey(msg[opens : opens+m[1]]); !ok || strings.TrimPrefix(key, "/") != name {
		return nil
	}
	return []int{opens + m[4], opens + m[5]}
}

// quotedKeyFailedWithRE: a quoted name, then "failed with", a colon and
// the error.
var quotedKeyFailedWithRE = regexp.MustCompile(`"([^"\s]+)" (failed with) ?: \S`)

// keyFailedWithRE: the first word, then "failed with", a colon (after a
// space, as the format string writes it, or not) and the error.
var keyFailedWithRE = regexp.MustCompile(`^(\S+) (failed with) ?: \S`)

// kindKeyFailedWithRE: an upper-case kind ("PV"), the name, "failed with".
var kindKeyFailedWithRE = regexp.MustCompile(`^[A-Z]{2,5} (\S+) (failed with) ?: \S`)

// messageKey finds the one key in head; at is where it starts. A key is
// a namespace/name (bare, quoted, bracketed, or in Volcano's job<ns/x>);
// failing that, one quoted name or UID ("error syncing 'webhook-config'",
// `error syncing claim "bd1cb869-…"`): a cluster-scoped key. Two different
// ones, or none, are no key.
func messageKey(head string) (key string, at int, ok bool) {
	pos := 0
	var quoted string
	quotedAt, quotes := -1, 0
	for w := range strings.FieldsSeq(head) {
		i := strings.Index(head[pos:], w) + pos
		pos = i + len(w)
		if lt := strings.IndexByte(w, '<'); lt > 0 && strings.HasSuffix(strings.TrimRight(w, ",;.:"), ">") {
			w = w[lt:]
		}
		t := strings.TrimRight(strings.TrimLeft(w, `"'<([{`), `"'>)]},;.:`)
		if strings.HasPrefix(t, pythonNone) {
			t = t[len(pythonNone)-1:] // "None/x": the cluster-scoped x, "/x" (bracketed.go)
		}
		if q := strings.TrimRight(w, ",;.:"); len(q) > 2 && (q[0] == '\'' || q[0] == '"') && q[len(q)-1] == q[0] && !strings.Contains(t, "/") && clusterName.MatchString(t) {
			if quotes == 0 || quoted != t {
				quotes++
			}
			quoted, quotedAt = t, i+strings.Index(w, t)
			continue
		}
		if strings.HasPrefix(t, "'") || !strings.Contains(t, "/") || !nsName.MatchString(t) {
			continue
		}
		if _, name, _ := strings.Cut(t, "/"); apiVersion.MatchString(name) {
			continue
		}
		switch {
		case key == "":
			key, at = t, i+strings.Index(w, t)
		case key != t:
			return "", 0, false
		}
	}
	if key == "" && quotes == 1 {
		return "/" + quoted, quotedAt - 1, true
	}
	return key, at, key != ""
}

// outsideRecords is where the first ": " of rest is that is not inside a
// printed record's braces ("ExecutionScope{ resource id: ResourceID{…}}",
// whose colons are its fields'), -1 for none; with braces that never
// close, the first ": " wherever it is.
func outsideRecords(rest string) int {
	first := strings.Index(rest, ": ")
	if first < 0 || strings.IndexByte(rest[:first], '{') < 0 {
		return first
	}
	depth := 0
	for i := 0; i < len(rest); i++ {
		switch {
		case rest[i] == '{':
			depth++
		case rest[i] == '}' && depth > 0:
			depth--
		case depth == 0 && strings.HasPrefix(rest[i:], ": "):
			return i
		}
	}
	if depth > 0 {
		return first
	}
	return -1
}

// keyParts splits a key messageKey or literalKey found: "ns/name", or
// "/name", a cluster-scoped name, with no namespace.
func keyParts(key string) (namespace, name string) {
	if name, ok := strings.CutPrefix(key, "/"); ok {
		return "", name
	}
	return splitRef(key)
}

// clusterName is a cluster-scoped object's name as a message quotes it: a
// DNS subdomain (which a UID is too), with a dot, a dash or a digit, so
// that a quoted word ("'Warning'") is not taken for one.
var clusterName = regexp.MustCompile(`^[a-z0-9](?:[-a-z0-9.]{0,251}[a-z0-9])?$`)

// errorAfter is the error a message states after from: what follows the
// next ": " (or ", err "), else the whole message.
func errorAfter(msg string, from int) string {
	if c := retryCount.FindStringIndex(msg[from:]); c != nil {
		// "retrying (retry count: 11): ERR": the count's colon is not the
		// error's.
		if i := strings.Index(msg[from:], ": "); i >= c[0] && i < c[1] {
			from += c[1]
		}
	}
	rest := msg[from:]
	if i := outsideRecords(rest); i >= 0 {
		return rest[i+2:]
	}
	if i := strings.Index(rest, ", err "); i >= 0 {
		return rest[i+len(", err "):]
	}
	return msg
}
