package logs

import (
	"strings"
	"testing"
)

// TestBracketedLineBehindPrefix: Python logging's line (kopf's, its time
// bracketed) behind stern's "POD CONTAINER" is read as the same line
// without it — batch 11's 1102, verbatim from
// https://github.com/dask/dask-kubernetes/issues/740, and 1101, the same
// handler's line pasted bare — while the traceback behind the same prefix,
// a bracketed command after two words (1116) and a bracketed time that is
// no time name no key.
func TestBracketedLineBehindPrefix(t *testing.T) {
	stern := readTestdata(t, "testdata/batch11/1102-dask-kubernetes-stern-prefix-kopf-handler-failed-will-retry.log")
	bare := readTestdata(t, "testdata/batch11/1101-dask-kubernetes-kopf-bracketed-handler-failed-will-retry-traceback.log")
	lines := strings.Split(stern, "\n")
	const handler = "Handler 'handle_scheduler_service_status/status' failed with an exception. Will retry."
	for _, tt := range []struct {
		name, log                  string
		controller, key, errPrefix string // key "": no key read
	}{
		{"kopf behind stern's names, with its traceback", stern, "kopf.objects", "nhh829-kf/dask-923089b1-9", handler},
		{"the failure line alone", lines[1], "kopf.objects", "nhh829-kf/dask-923089b1-9", handler},
		{"the same line bare, as before", bare, "kopf.objects", "ml-adhoc/dask-carenguo-ce3378d5-7", handler},
		{"the traceback alone", strings.Join(lines[2:], "\n"), "", "", ""},
		{"an info line behind the names", strings.Replace(lines[1], "[ERROR   ]", "[INFO    ]", 1), "", "", ""},
		{"a bracketed time that is no time", strings.Replace(lines[1], "[2023-08-24 16:29:52,731]", "[2023-08-24 16:29:52 UTC]", 1), "", "", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			wantOneKey(t, tt.log, oneKeyCase{controller: tt.controller, key: tt.key, errPrefix: tt.errPrefix, failures: 1})
		})
	}
	// 1116's runtime-API errors, each followed by its command in brackets
	// on a line of its own after a space: still no key.
	wantOneKey(t, readTestdata(t, "testdata/batch11/1116-negative-haproxytech-ingress-runtime-api-errors-wrapped-command-lines.log"), oneKeyCase{})
}

// TestPythonLineStart: only a bracketed date and time opens a Python line.
func TestPythonLineStart(t *testing.T) {
	for line, want := range map[string]bool{
		"[2023-08-24 16:29:52,731] kopf.objects         [ERROR   ] [ns/x] Handler 'h' failed": true,
		"[2020-09-04 08:16:44.581] kopf.objects [ERROR   ] x":                                 true,
		"[2023-08-24 16:29:52 UTC] kopf.objects [ERROR   ] x":                                 false,
		"[set server stargate-staging-backend-nodejs-80/SRV_4XbW6 addr 100.65.99.242]":        false,
		"[pod/web-0/manager] 2024-01-02T03:04:05Z ERROR x":                                    false,
	} {
		if got := pythonLineStart([]byte(line)); got != want {
			t.Errorf("pythonLineStart(%q) = %v, want %v", line, got, want)
		}
	}
}
