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
