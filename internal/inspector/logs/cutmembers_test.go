package logs

import (
	"strings"
	"testing"
)

// TestRecordCutBetweenMembers: a JSON record whose paste ends right after a
// member's comma (its "errorVerbose" or "stacktrace" and its "}" dropped)
// is read when its key is whole before the cut, and not when only the
// name was read (its namespace, written after it, may be what was cut).
func TestRecordCutBetweenMembers(t *testing.T) {
	// The pretty-printed record of batch 6's 125 (logging-operator,
	// https://github.com/kube-logging/logging-operator/issues/734): the key
	// a request "/name".
	logging := readTestdata(t, "testdata/batch6/125-logging-operator-prettyjson-reconciler-error-request-slash.log")
	// https://github.com/kubevirt/ssp-operator/issues/323, its lines
	// verbatim, cut as a paste cuts: after "error" (the key whole: name
	// and namespace read), and after "name" (its namespace cut).
	ssp := []string{
		` {`,
		`  "level":"error",`,
		`  "ts":1646818725.6815221,`,
		`  "logger":"controller-runtime.manager.controller.ssp",`,
		`  "msg":"Reconciler error",`,
		`  "reconciler group":"ssp.kubevirt.io",`,
		`  "reconciler kind":"SSP",`,
		`  "name":"ssp-kubevirt-hyperconverged",`,
		`  "namespace":"kubevirt-hyperconverged",`,
		`  "error":"Operation cannot be fulfilled on ssps.ssp.kubevirt.io \"ssp-kubevirt-hyperconverged\": the object has been modified; please apply your changes to the latest version and try again",`,
	}
	for _, tt := range []struct {
		name, log                  string
		controller, key, errPrefix string // key "": no key read
	}{
		{"pretty, cut after error, key in request", logging, "logging", "default-logging-simple", "current config is invalid"},
		{"pretty, cut after error, name and namespace read", "{\n" + strings.Join(ssp[1:], "\n"), "ssp", "kubevirt-hyperconverged/ssp-kubevirt-hyperconverged", "Operation cannot be fulfilled on ssps.ssp.kubevirt.io"},
		{"pretty, cut after name: its namespace may follow", "{\n" + strings.Join(ssp[1:8], "\n"), "", "", ""},
		{"one line, cut after name", `{"level":"error","ts":1646818725.68,"msg":"Reconciler error","controller":"ssp","name":"ssp-kubevirt-hyperconverged",`, "", "", ""},
		{"one line, cut after a key's colon", `{"level":"error","ts":1646818725.68,"msg":"Reconciler error","controller":"ssp","request":`, "", "", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			wantOneKey(t, tt.log, oneKeyCase{controller: tt.controller, key: tt.key, errPrefix: tt.errPrefix, failures: 1})
		})
	}
}
