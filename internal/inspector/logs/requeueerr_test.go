package logs

import (
	"strings"
	"testing"
)

// TestTaskQueueRequeuing: the ingress task queue's "requeuing KEY, err
// ERR" (requeueerr.go) is its item's failed attempt when KEY is a
// namespace/name — batch 11's 1115, verbatim from
// https://github.com/jcmoraisjr/haproxy-ingress/issues/79 — and names no
// key when the item is ingress-nginx's synthetic "initial-sync"
// (testdata/wild, kubernetes/ingress-nginx#3443), when the error is
// missing, or when the words are another message's.
func TestTaskQueueRequeuing(t *testing.T) {
	haproxy := readTestdata(t, "testdata/batch11/1115-haproxy-ingress-klog-task-queue-requeuing-key-err-then-reload-failure.log")
	nginx := readTestdata(t, "testdata/wild/ingress-nginx-3443.log")
	requeuing := strings.Split(haproxy, "\n")[1]
	for _, tt := range []struct {
		name, log                  string
		controller, key, errPrefix string // key "": no key read
	}{
		{"haproxy-ingress, the whole paste", haproxy, "queue", "perlweb/perlcom-tpf", "exit status 1"},
		{"the requeuing line alone", requeuing, "queue", "perlweb/perlcom-tpf", "exit status 1"},
		{"an error with colons in it is kept whole", strings.Replace(requeuing, "exit status 1", "Post http://localhost:18080/configuration/backends: dial tcp [::1]:18080: connect: connection refused", 1),
			"queue", "perlweb/perlcom-tpf", "Post http://localhost:18080/configuration/backends: dial tcp"},
		{"ingress-nginx's initial-sync names no object", nginx, "", "", ""},
		{"no error after the key", strings.TrimSuffix(requeuing, ", err exit status 1"), "", "", ""},
		{"an empty error", strings.TrimSuffix(requeuing, "exit status 1"), "", "", ""},
		{"other words before it", strings.Replace(requeuing, "requeuing", "not requeuing", 1), "", "", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			wantOneKey(t, tt.log, oneKeyCase{controller: tt.controller, key: tt.key, errPrefix: tt.errPrefix, failures: 1})
		})
	}
}

// TestRequeueErrParts: requeueErr finds the key's end and the error only
// in the task queue's own words, either case of its first letter.
func TestRequeueErrParts(t *testing.T) {
	for _, tt := range []struct {
		msg, key, err string // key "": not the task queue's line
	}{
		{"requeuing perlweb/perlcom-tpf, err exit status 1", "perlweb/perlcom-tpf", "exit status 1"},
		{"Requeuing default/web, err sync failed", "default/web", "sync failed"},
		{"requeuing initial-sync, err Post http://localhost:18080/configuration/backends: refused", "", ""},
		{"requeuing /web, err boom", "", ""},
		{"requeuing default/web, err ", "", ""},
		{"requeuing default/web after 5s, err boom", "", ""},
		{"Error requeuing default/web, err boom", "", ""},
	} {
		end, err, ok := requeueErr(tt.msg, 0)
		if got := ""; ok {
			got = tt.msg[len("requeuing "):end]
			if got != tt.key || err != tt.err {
				t.Errorf("%q: key %q err %q, want %q %q", tt.msg, got, err, tt.key, tt.err)
			}
		} else if tt.key != "" {
			t.Errorf("%q: not read, want key %q", tt.msg, tt.key)
		}
	}
}

// TestTaskQueueRequeuingDueToError: GCE's copy of the task queue,
// `Requeuing "KEY" due to error: ERR (QUEUE)` (requeueerr.go), is KEY's
// failed attempt under the queue's name — batch 19's 1902, verbatim from
// https://github.com/kubernetes/ingress-gce/issues/606 — and names no key
// when KEY is not a namespace/name, is not quoted, or has no error.
func TestTaskQueueRequeuingDueToError(t *testing.T) {
	gce := readTestdata(t, "testdata/batch19/1902-ingress-gce-klog-taskqueue-requeuing-quoted-key-due-to-error-queue-name-ellipses.log")
	line := strings.Split(gce, "\n")[1]
	for _, tt := range []struct {
		name, log                  string
		controller, key, errPrefix string // key "": no key read
	}{
		{"the first line alone", line, "ingresses", "ingress-3548/echoheaders-https", "error running post-process routine: update ingress status error"},
		{"a synthetic item names no object", strings.Replace(line, `"ingress-3548/echoheaders-https"`, `"initial-sync"`, 1), "", "", ""},
		{"an unquoted key is another copy's words", strings.Replace(line, `"ingress-3548/echoheaders-https"`, "ingress-3548/echoheaders-https", 1), "", "", ""},
		{"no error after the words", line[:strings.Index(line, " due to error: ")+len(" due to error: ")], "", "", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			wantOneKey(t, tt.log, oneKeyCase{controller: tt.controller, key: tt.key, errPrefix: tt.errPrefix, failures: 1})
		})
	}
	// The queue's name is not part of the error; an error that does not
	// end in one is kept whole.
	if r := wantLineRead(t, line, "ingresses", "ingress-3548/echoheaders-https", "error running"); !strings.HasSuffix(r.Error, `"echoheaders-https" not found`) {
		t.Errorf("error %q, want it without the queue's name", r.Error)
	}
	other := strings.Replace(line, " (ingresses)", " (see https://x)", 1)
	if r := wantLineRead(t, other, "taskqueue", "ingress-3548/echoheaders-https", "error running"); !strings.HasSuffix(r.Error, "(see https://x)") {
		t.Errorf("error %q, want it whole", r.Error)
	}
	for _, tt := range []struct{ err, rest, queue string }{
		{"boom (ingresses)", "boom", "ingresses"},
		{"boom (l7-lb)", "boom", "l7-lb"},
		{"boom (Ingresses)", "boom (Ingresses)", ""},
		{"boom (two words)", "boom (two words)", ""},
		{"boom ()", "boom ()", ""},
		{"(ingresses)", "(ingresses)", ""},
		{"boom", "boom", ""},
	} {
		if rest, queue := requeueQueue(tt.err); rest != tt.rest || queue != tt.queue {
			t.Errorf("requeueQueue(%q) = %q, %q; want %q, %q", tt.err, rest, queue, tt.rest, tt.queue)
		}
	}
}
